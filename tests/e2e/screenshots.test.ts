/**
 * Every page as a visitor, a client and the operator see it, at a desktop and a phone size, in
 * both themes: a screenshot of each goes to test-results/screenshots/ (not committed) for anyone
 * to look at after a run, and each must fit its width (no sideways scrolling).
 */
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, test } from "./page-test.ts";
import { adminLogin } from "./admin-fixtures.ts";
import { loginAs } from "./fixtures.ts";
import { hydrated, operatorChapters } from "./reader-helpers.ts";
import { projectRoot } from "./server.ts";

const OUT = path.join(projectRoot, "test-results", "screenshots");
const SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

async function shoot(page: Page, name: string, size: { width: number }, theme: string): Promise<void> {
  await hydrated(page);
  await page.screenshot({ path: path.join(OUT, `${name}-${size.width}-${theme}.png`) });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${name} scrolls sideways`).toBeLessThanOrEqual(0);
}

for (const size of SIZES) {
  for (const theme of ["dark", "light"] as const) {
    test.describe(`${size.width}x${size.height}, ${theme}`, () => {
      test.use({ viewport: size });
      test.beforeEach(async ({ page }) => {
        await page.addInitScript((value) => localStorage.setItem("book-theme", value), theme);
      });

      test("public pages", async ({ page, request }) => {
        const [first] = await operatorChapters(request);
        const pages: Array<[string, string]> = [
          ["chapter", `/${first!.slug}`],
          ["apply", "/apply"],
          ["in-person", "/in-person"],
          ["about", "/about"],
          ["privacy-policy", "/privacy-policy"],
          ["terms-of-service", "/terms-of-service"],
          ["disclaimer", "/disclaimer"],
          ["resume", "/resume"],
          ["assessment", "/assessment"],
          ["chapter-not-found", "/no-such-chapter"],
          ["404", "/no/such/page"],
        ];
        for (const [name, address] of pages) {
          await page.goto(address);
          await shoot(page, name, size, theme);
        }
        await page.goto(`/${first!.slug}`);
        await hydrated(page);
        await page.getByRole("button", { name: /Chapters|Open the chapter list/ }).locator("visible=true").first().click();
        await expect(page.getByRole("dialog", { name: "Chapters" })).toBeVisible();
        // Once it has slid in.
        await page.getByRole("dialog", { name: "Chapters" }).evaluate((drawer) => Promise.all(drawer.getAnimations().map((a) => a.finished)));
        await shoot(page, "chapter-drawer", size, theme);
        await page.goto("/in-person");
        await hydrated(page);
        await page.getByRole("button", { name: "Request a Private Meeting" }).click();
        await expect(page.getByRole("dialog", { name: "Private Meeting Request" })).toBeVisible();
        await shoot(page, "in-person-modal", size, theme);
      });

      test("a client's pages", async ({ page }) => {
        await loginAs(page, "Mastermind");
        await page.goto("/resume");
        await shoot(page, "resume-signed-in", size, theme);
        await page.goto("/profile");
        await expect(page.getByRole("heading", { name: "My Profile" })).toBeVisible();
        await shoot(page, "profile", size, theme);
      });

      test("the admin panel", async ({ page }) => {
        await page.goto("/admin");
        await expect(page.getByRole("heading", { name: "Admin Sign In" })).toBeVisible();
        await shoot(page, "admin-sign-in", size, theme);
        await adminLogin(page);
        await shoot(page, "admin-chapters", size, theme);
        await page.getByRole("tab", { name: /^Assessment Submissions/ }).click();
        await shoot(page, "admin-submissions", size, theme);
        await page.getByRole("tab", { name: "Access Codes" }).click();
        await shoot(page, "admin-access-codes", size, theme);
      });
    });
  }
}
