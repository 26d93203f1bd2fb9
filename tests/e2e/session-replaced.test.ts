/**
 * Told, not dropped (issue 22: 8): a reader whose session ended because their access code signed
 * in on another device (beyond the code's cap) is told so on /resume, once, on a phone and a
 * desktop; a reader who signed out is not.
 */
import { expect, test } from "./page-test.ts";
import { issueCode } from "./admin-fixtures.ts";
import { seriousViolations } from "./axe.ts";
import { enterCode, hydrated } from "./reader-helpers.ts";

const NOTICE = /You were signed out here because your access code was used to sign in on another device/;

for (const size of [
  { name: "phone", width: 390, height: 844, theme: "light" },
  { name: "desktop", width: 1280, height: 800, theme: "dark" },
] as const) {
  test(`a reader signed out by a sign-in on another device is told so on /resume (${size.name}, ${size.theme} theme)`, async ({ page, browser }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.addInitScript((value) => localStorage.setItem("book-theme", value), size.theme);
    const code = await issueCode(browser, { level: "Architect", maxSessions: 1 });
    const architect = ((await (await page.request.get("/api/chapters")).json()) as Array<{ slug: string; level: string }>).find(
      (chapter) => chapter.level === "Architect",
    )!;

    // This device signs in and reads.
    await page.goto("/resume");
    await hydrated(page);
    await enterCode(page, code);
    await page.goto(`/${architect.slug}`);
    await expect(page.locator("main h1")).toBeVisible();

    // Another device signs in with the same code: the code allows one session.
    const other = await page.context().browser()!.newContext();
    const response = await other.request.post(new URL("/api/auth/validate", page.url()).href, { data: code });
    expect(response.status()).toBe(200);
    await other.close();

    // The next locked page sends this reader to /resume, which says why.
    await page.goto(`/${architect.slug}`);
    await expect(page).toHaveURL(/\/resume\?level=Architect$/);
    await expect(page.getByRole("status").filter({ hasText: NOTICE })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Enter The System" })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    // Told once.
    await page.reload();
    await hydrated(page);
    await expect(page.getByRole("heading", { name: "Enter The System" })).toBeVisible();
    await expect(page.getByText(NOTICE)).toHaveCount(0);

    // Signing in again continues here, and a reader who signs out is not told anything.
    await enterCode(page, code);
    await page.getByRole("button", { name: "Exit System" }).click();
    await expect(page.getByRole("heading", { name: "Enter The System" })).toBeVisible();
    await page.goto(`/${architect.slug}`);
    await expect(page).toHaveURL(/\/resume\?level=Architect$/);
    await hydrated(page);
    await expect(page.getByText(NOTICE)).toHaveCount(0);
  });
}
