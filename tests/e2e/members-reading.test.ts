/**
 * Members' reading (issue 23): a member reads on a phone in one browser, and continues on a
 * desktop in another, at the subsection where they stopped: /resume and the profile offer it.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./page-test.ts";
import { issueCode } from "./admin-fixtures.ts";
import { seriousViolations } from "./axe.ts";
import { enterCode, hydrated } from "./reader-helpers.ts";

async function signIn(page: Page, code: { login: string; password: string }): Promise<void> {
  await page.goto("/resume");
  await hydrated(page);
  await enterCode(page, code);
}

test("a member reads on a phone and continues on a desktop at the same subsection, from /resume and the profile", async ({ page, browser }) => {
  const code = await issueCode(browser, { level: "Architect", maxSessions: 3 });
  const chapters = (await (await page.request.get("/api/chapters")).json()) as Array<{ slug: string; title: string; level: string; order: number }>;
  const architect = chapters.filter((c) => c.level === "Architect").sort((a, b) => a.order - b.order)[0]!;

  // The phone: sign in, open an Architect chapter, read down to its third subsection.
  await page.setViewportSize({ width: 390, height: 844 });

  await signIn(page, code);
  await page.goto(`/${architect.slug}`);
  const sections = page.locator("article [data-subsection]");
  expect(await sections.count()).toBeGreaterThanOrEqual(3);
  const third = sections.nth(2);
  const section = (await third.getAttribute("id"))!;
  const sectionTitle = (await third.getAttribute("data-subsection"))!;
  await third.evaluate((element) => element.scrollIntoView());
  await expect(page.locator(`.toc-link[href="#${section}"]`).first()).toHaveAttribute("aria-current", "location");
  // The next heartbeat names that subsection (one goes as the page is hidden or shown, too).
  const kept = page.waitForResponse(
    (response) => response.url().endsWith("/api/reading/heartbeat") && JSON.parse(response.request().postData() ?? "{}").section === section,
  );
  await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange", { bubbles: true })));
  expect([202, 204]).toContain((await kept).status());

  // The desktop, another browser: signing in offers the place, and Continue opens the chapter there.
  const desktop = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: "dark" });
  const other = await desktop.newPage();
  await other.addInitScript(() => localStorage.setItem("book-theme", "dark"));
  await signIn(other, code);
  const offer = other.getByTestId("continue-reading");
  await expect(offer).toBeVisible();
  await expect(offer.getByRole("heading", { name: "Where you left off" })).toBeVisible();
  await expect(offer).toContainText(architect.title);
  await expect(offer).toContainText(`03 ${sectionTitle}`);
  expect(await seriousViolations(other)).toEqual([]);
  await offer.getByRole("link", { name: "Continue" }).click();
  await expect(other).toHaveURL(new RegExp(`/${architect.slug}#${section}$`));
  await expect(other.locator(`[id="${section}-title"]`)).toBeInViewport();

  // The profile offers the same, on either device.
  await other.goto("/profile");
  await expect(other.getByTestId("continue-reading")).toContainText(`03 ${sectionTitle}`);
  await page.goto("/profile");
  await expect(page.getByTestId("continue-reading").getByRole("link", { name: "Continue" })).toHaveAttribute("href", `/${architect.slug}#${section}`);
  expect(await seriousViolations(page)).toEqual([]);
  await desktop.close();
});

test("an anonymous reader's chapter pages send no heartbeat and ask for no place", async ({ page }) => {
  const asked: string[] = [];
  page.on("request", (request) => {
    if (/\/api\/reading\//.test(request.url())) asked.push(request.url());
  });
  const chapters = (await (await page.request.get("/api/chapters")).json()) as Array<{ slug: string; level: string }>;
  await page.goto(`/${chapters.find((c) => c.level === "Operator")!.slug}`);
  await hydrated(page);
  await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange", { bubbles: true })));
  await page.goto("/resume");
  await hydrated(page);
  await expect(page.getByRole("heading", { name: "Enter The System" })).toBeVisible();
  expect(asked).toEqual([]);
});
