/**
 * Accessibility: axe-core on every page type, in both themes, with zero serious or critical
 * violations (WCAG 2.2 AA rules, colour contrast included: tests/e2e/axe.ts); plus the skip link and landmarks.
 */
import { seriousViolations } from "./axe.ts";
import { expect, test } from "./page-test.ts";
import { hydrated, operatorChapters } from "./reader-helpers.ts";

const pages = ["/apply", "/in-person", "/about", "/privacy-policy", "/terms-of-service", "/disclaimer", "/no-such-page"];

for (const theme of ["dark", "light"] as const) {
  test.describe(`${theme} theme`, () => {
    test.beforeEach(async ({ page }) => {
      await page.addInitScript((value) => localStorage.setItem("book-theme", value), theme);
    });

    test("a chapter page, scrolled and with the drawer open", async ({ page, request }) => {
      const [first] = await operatorChapters(request);
      await page.goto(`/${first!.slug}`);
      await hydrated(page);
      expect(await seriousViolations(page)).toEqual([]);
      // On a reader page from 640 px the rail's button is the menu control (the header's hides).
      await page.getByRole("button", { name: "Open the chapter list" }).click();
      await expect(page.getByRole("dialog", { name: "Chapters" })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });

    for (const path of pages) {
      test(`${path}`, async ({ page }) => {
        await page.goto(path);
        await hydrated(page);
        expect(await seriousViolations(page)).toEqual([]);
      });
    }

    test("/in-person with the meeting modal open", async ({ page }) => {
      await page.goto("/in-person");
      await page.getByRole("button", { name: "Request a Private Meeting" }).click();
      await expect(page.getByRole("dialog", { name: "Private Meeting Request" })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}

test("the skip link is the first stop and moves focus to the main content", async ({ page, request }) => {
  const [first] = await operatorChapters(request);
  await page.goto(`/${first!.slug}`);
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();
  await page.keyboard.press("Enter");
  await expect(page.locator("main#main")).toBeFocused();
  await expect(page.getByRole("banner")).toHaveCount(1);
  await expect(page.getByRole("main")).toHaveCount(1);
  await expect(page.getByRole("contentinfo")).toHaveCount(1);
});

test("reduced motion: transitions are effectively off", async ({ page, request }) => {
  const [first] = await operatorChapters(request);
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto(`/${first!.slug}`);
  const duration = await page.getByTestId("rail").evaluate((el) => parseFloat(getComputedStyle(el).transitionDuration));
  expect(duration).toBeLessThan(0.001);
});
