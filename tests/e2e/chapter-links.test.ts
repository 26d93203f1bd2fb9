/**
 * Links in chapter text (issue 31: 7): a link to another site opens in a new tab and says so, in
 * words a screen reader reads and with a mark the eye sees, as /apply's links do; a link within
 * the site does neither.
 */
import { expect, test } from "./page-test.ts";
import { adminLogin, createChapter } from "./admin-fixtures.ts";
import { loginAs } from "./fixtures.ts";

test("a link to another site in a chapter opens in a new tab and says so; a link within the site does not", async ({ browser, page }) => {
  const admin = await browser.newPage();
  await adminLogin(admin);
  const chapter = await createChapter(admin, {
    content: "Read [the Stoics on attention](https://example.org/stoics) first, then [choose your path](/apply).\n\nMore words follow here.",
  });
  await admin.context().close();

  await loginAs(page, "Mastermind");
  await page.goto(`/${chapter.slug}`);
  const leaving = page.getByRole("link", { name: "the Stoics on attention (opens another site in a new tab)" });
  await expect(leaving).toHaveAttribute("target", "_blank");
  await expect(leaving).toHaveAttribute("rel", "noopener noreferrer");
  const mark = leaving.locator(".external-mark");
  await expect(mark).toBeVisible();
  const box = (await mark.boundingBox())!;
  expect(box.width).toBeGreaterThan(5);
  expect(box.height).toBeGreaterThan(5);
  await expect(mark).toHaveAttribute("aria-hidden", "true");

  const staying = page.getByRole("link", { name: "choose your path", exact: true });
  await expect(staying).toHaveAttribute("href", "/apply");
  await expect(staying).not.toHaveAttribute("target", /./);
  await expect(staying.locator(".external-mark")).toHaveCount(0);
});
