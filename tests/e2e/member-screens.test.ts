/**
 * A member's screens (issue 34: 1-3), at 390 and 1280 px in both themes, with axe: reading is the
 * main action on /resume and /profile (the one gold button: 'Start reading {level}', then
 * 'Continue: {chapter}'), 'Exit System' a quiet control; a new member's figures say so in words;
 * and a reader sent to /resume from a locked level is told which level, how it opens, where to
 * join, and how to reach support.
 */
import type { Browser, Page } from "@playwright/test";
import { issueCode } from "./admin-fixtures.ts";
import { seriousViolations } from "./axe.ts";
import { expect, test } from "./page-test.ts";
import { enterCode, hydrated } from "./reader-helpers.ts";

const SIZES = [
  { width: 390, height: 844, theme: "light" },
  { width: 1280, height: 800, theme: "dark" },
] as const;

async function open(browser: Browser, size: (typeof SIZES)[number]): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: size.width, height: size.height } });
  await context.addInitScript((theme) => localStorage.setItem("book-theme", theme), size.theme);
  return context.newPage();
}

/** The page's gold buttons (the call to action), by their text. */
const goldButtons = (page: Page) => page.locator("main .cta-button:visible").allInnerTexts();

for (const size of SIZES) {
  test(`at ${size.width} px, ${size.theme}: a member's main action on /resume and /profile is reading; Exit System is quiet; no zero figures`, async ({ browser, site }) => {
    const code = await issueCode(browser, { level: "Architect" });
    const page = await open(browser, size);
    await page.goto(`${site.url}/resume`);
    await hydrated(page);
    await enterCode(page, code);

    // A new member: start reading their level, from its first chapter.
    const chapters = (await (await page.request.get(`${site.url}/api/chapters`)).json()) as Array<{ slug: string; title: string; level: string; order: number }>;
    const first = chapters.filter((c) => c.level === "Architect").sort((a, b) => a.order - b.order)[0]!;
    const start = page.getByTestId("continue-reading").getByRole("link", { name: "Start reading Architect" });
    await expect(start).toHaveAttribute("href", `/${first.slug}`);
    expect(await goldButtons(page)).toEqual(["Start reading Architect"]);
    const exit = page.getByRole("button", { name: "Exit System" });
    await expect(exit).toHaveClass(/button-quiet/);
    // The main action stands above the quiet one, and is the larger.
    const [startBox, exitBox] = [(await start.boundingBox())!, (await exit.boundingBox())!];
    expect(startBox.y).toBeLessThan(exitBox.y);
    expect(startBox.height).toBeGreaterThan(exitBox.height);
    expect(await seriousViolations(page)).toEqual([]);

    // The profile: the same main action, and figures in words, never a zero.
    await page.goto(`${site.url}/profile`);
    await expect(page.getByTestId("continue-reading").getByRole("link", { name: "Start reading Architect" })).toBeVisible();
    await expect(page.getByTestId("streak-days")).toHaveText("Not started");
    await expect(page.getByTestId("session-count")).toHaveText("None yet");
    await expect(page.getByText("Your first reading session shows here.")).toBeVisible();
    await expect(page.getByText(/\b0 minutes?\b/)).toHaveCount(0);
    expect(await goldButtons(page)).toEqual(["Start reading Architect"]);
    await expect(page.getByRole("button", { name: "Exit System" })).toHaveClass(/button-quiet/);
    expect(await seriousViolations(page)).toEqual([]);

    // Once they have read: Continue, named by the chapter, on both pages.
    const beat = page.waitForResponse((response) => response.url().endsWith("/api/reading/heartbeat"));
    await page.goto(`${site.url}/${first.slug}`);
    expect([202, 204]).toContain((await beat).status());
    for (const path of ["/resume", "/profile"]) {
      await page.goto(`${site.url}${path}`);
      await expect(page.getByTestId("continue-reading").getByRole("link", { name: `Continue: ${first.title}` })).toHaveAttribute("href", new RegExp(`^/${first.slug}`));
      expect(await goldButtons(page), path).toEqual([`Continue: ${first.title}`]);
    }
    await page.context().close();
  });

  test(`at ${size.width} px, ${size.theme}: a locked level sends the reader to a /resume card that names it, says how it opens, and how to reach support`, async ({ browser, site }) => {
    const page = await open(browser, size);
    const chapters = (await (await page.request.get(`${site.url}/api/chapters`)).json()) as Array<{ slug: string; level: string }>;
    const mastermind = chapters.find((c) => c.level === "Mastermind")!;
    await page.goto(`${site.url}/${mastermind.slug}`);
    await expect(page).toHaveURL(/\/resume\?level=Mastermind$/);
    await hydrated(page);
    const asked = page.getByTestId("asked-level");
    await expect(asked).toHaveText(/^Mastermind chapters are open to members\. They open with the access code and password you received on enrollment\./);
    await expect(asked.getByRole("link", { name: "How to join Mastermind" })).toHaveAttribute("href", "/apply");
    // SPEC's note stays word for word; support is named under it.
    await expect(page.getByText("Access codes are provided upon enrollment. Contact support if you need assistance.")).toBeVisible();
    await expect(page.getByRole("link", { name: "support@the-system.example" })).toHaveAttribute("href", "mailto:support@the-system.example");
    expect(await seriousViolations(page)).toEqual([]);

    // Plain /resume (and an unknown or open level) names none.
    for (const path of ["/resume", "/resume?level=Operator", "/resume?level=Nobody"]) {
      await page.goto(`${site.url}${path}`);
      await hydrated(page);
      await expect(page.getByRole("heading", { name: "Enter The System" })).toBeVisible();
      await expect(page.getByTestId("asked-level"), path).toHaveCount(0);
    }
    await page.context().close();
  });
}
