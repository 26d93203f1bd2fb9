/**
 * The admin panel's accessibility: axe-core (WCAG 2.2 AA and best practices) finds no serious or
 * critical violation on the sign-in form, each tab, an expanded card and every kind of dialog, in
 * both themes; dialogs keep focus inside, close on Escape and give focus back. Plus the first-admin
 * setup form, which only shows while no admin exists (mocked here: the e2e database has one).
 */
import { seriousViolations } from "./axe.ts";
import { expect, test } from "./page-test.ts";
import { adminLogin, chapterCard, createChapter, createSubsection, showLevel } from "./admin-fixtures.ts";
import { hydrated } from "./reader-helpers.ts";

for (const theme of ["dark", "light"] as const) {
  test.describe(`${theme} theme`, () => {
    test.beforeEach(async ({ page }) => {
      await page.addInitScript((value) => localStorage.setItem("book-theme", value), theme);
    });

    test("sign-in form", async ({ page }) => {
      await page.goto("/admin");
      await hydrated(page);
      await expect(page.getByRole("heading", { name: "Admin Sign In" })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });

    test("chapters with a card expanded, an open dialog and a confirmation; submissions; access codes", async ({ page }) => {
      // Five full axe runs over the panel: about 18 s alone, more on a loaded machine.
      test.setTimeout(90_000);
      await adminLogin(page);
      const chapter = await createChapter(page);
      await createSubsection(page, chapter.id, "Axe Part", 0);
      await page.reload();
      await hydrated(page);
      await showLevel(page, "Mastermind");
      await chapterCard(page, chapter.title).getByRole("button", { name: `Expand ${chapter.title}` }).click();
      await expect(chapterCard(page, chapter.title).getByRole("list", { name: "Subsections" })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole("button", { name: "Create New Chapter" }).click();
      const dialog = page.getByRole("dialog", { name: "Create New Chapter" });
      await dialog.getByRole("button", { name: "Create Chapter" }).click();
      await expect(dialog.getByText("Slug is required")).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      // A title's accented letters are written without accents in the slug, and the hint shows the real address (issue 34: 11).
      await dialog.getByLabel("Title").fill("Zażółć gęślą jaźń w Krakowie");
      await expect(dialog.getByLabel("Slug")).toHaveValue("zazolc-gesla-jazn-w-krakowie");
      await expect(dialog.getByText("Made from the title until you edit it. The chapter's address: /zazolc-gesla-jazn-w-krakowie")).toBeVisible();
      await page.keyboard.press("Escape");

      await chapterCard(page, chapter.title).getByRole("button", { name: "Edit subsection Axe Part" }).click();
      await expect(page.getByRole("dialog", { name: "Edit Subsection" })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press("Escape");

      await chapterCard(page, chapter.title).getByRole("button", { name: `Delete ${chapter.title}` }).click();
      await expect(page.getByRole("alertdialog", { name: "Delete chapter?" })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press("Escape");

      await page.getByRole("tab", { name: /^Assessment Submissions/ }).click();
      await expect(page.getByText(/^Score distribution/)).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole("tab", { name: "Access Codes" }).click();
      await page.getByRole("button", { name: "Issue Code" }).click();
      await expect(page.getByTestId("issued-code")).toBeVisible();
      // The shared Toasts island's <ol> holds <li role="status">, which axe's `list` rule flags on
      // every page while a toast shows (reported to its owner); close it to check the panel itself.
      await page.getByRole("button", { name: "Close notification" }).click();
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}

test("dialogs: focus starts on the first field, stays inside, Escape closes and focus returns", async ({ page }) => {
  await adminLogin(page);
  const opener = page.getByRole("button", { name: "Create New Chapter" });
  await opener.click();
  const dialog = page.getByRole("dialog", { name: "Create New Chapter" });
  await expect(dialog.getByLabel("Title")).toBeFocused();
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press("Tab");
    const inside = await dialog.evaluate((element) => element.contains(document.activeElement) || document.activeElement === document.body);
    expect(inside).toBe(true);
  }
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
});

test("the first-admin setup form shows with ?setup=TOKEN while no admin exists", async ({ page }) => {
  let sent: unknown;
  await page.route("**/api/admin/session", (route) => route.fulfill({ json: { authenticated: false, email: null, setupRequired: true } }));
  await page.route("**/api/admin/setup", (route) => {
    sent = route.request().postDataJSON();
    return route.fulfill({ status: 403, json: { error: { code: "setup_token_invalid", message: "This setup link is wrong or has expired." } } });
  });
  await page.goto("/admin?setup=tok123");
  await hydrated(page);
  await expect(page.getByRole("heading", { name: "Create the first admin" })).toBeVisible();
  await page.getByLabel("Email").fill("first@example.com");
  await page.getByLabel("Password").fill("short");
  await page.getByRole("button", { name: "Create Admin" }).click();
  await expect(page.getByText("Password must be at least 10 characters")).toBeVisible();
  await page.getByLabel("Password").fill("a-long-enough-password");
  await page.getByRole("button", { name: "Create Admin" }).click();
  await expect(page.getByRole("region", { name: "Notifications (F8)" })).toContainText("This setup link is wrong or has expired.");
  expect(sent).toEqual({ token: "tok123", email: "first@example.com", password: "a-long-enough-password" });

  // Without a token (or once an admin exists) it is the sign-in form.
  await page.goto("/admin");
  await hydrated(page);
  await expect(page.getByRole("heading", { name: "Admin Sign In" })).toBeVisible();
});
