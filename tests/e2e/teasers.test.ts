/**
 * A locked chapter's teaser (issue 15): written in the admin form (with its length limit), then
 * shown to readers without access on /resume and under the level switch's lock, with /apply.
 */
import { expect, test } from "./page-test.ts";
import { adminLogin, unique } from "./admin-fixtures.ts";
import { hydrated, operatorChapters } from "./reader-helpers.ts";

test("a teaser written in the chapter form shows on /resume and under the Architect lock, with a way to apply", async ({ page }) => {
  const title = unique("Teased Chapter");
  const teaser = "How to notice the rule you follow before you break it.";
  await adminLogin(page);
  await page.getByRole("button", { name: "Create New Chapter" }).click();
  const dialog = page.getByRole("dialog", { name: "Create New Chapter" });
  await dialog.getByLabel("Title").fill(title);
  // An Operator chapter has no teaser; a locked one may.
  await expect(dialog.getByLabel("Teaser (optional)")).toHaveCount(0);
  await dialog.getByLabel("Level").selectOption("Architect");
  await dialog.getByLabel("Order").fill("990");
  await dialog.getByLabel("Content").fill("The chapter's own text, which stays locked.");
  await dialog.getByLabel("Teaser (optional)").fill("x".repeat(301));
  await dialog.getByRole("button", { name: "Create Chapter" }).click();
  await expect(dialog.getByText("Teaser must be at most 300 characters")).toBeVisible();
  await expect(dialog.getByLabel("Teaser (optional)")).toHaveAttribute("aria-invalid", "true");
  await dialog.getByLabel("Teaser (optional)").fill(teaser);
  await dialog.getByRole("button", { name: "Create Chapter" }).click();
  await expect(dialog).toBeHidden();
  const created = ((await (await page.request.get("/api/admin/chapters")).json()) as Array<{ id: number; title: string; teaser: string | null }>).find(
    (c) => c.title === title,
  )!;
  expect(created.teaser).toBe(teaser);

  try {
    // Now a visitor without access: no session, and no chapter list kept from the admin's visit.
    await page.context().clearCookies();
    await page.evaluate(() => sessionStorage.clear());
    await page.goto("/resume");
    await hydrated(page);
    const teasers = page.getByTestId("level-teasers");
    await expect(teasers.getByRole("heading", { name: "In Architect" })).toBeVisible();
    await expect(teasers.getByText(title)).toBeVisible();
    await expect(teasers.getByText(teaser)).toBeVisible();
    await expect(teasers.getByRole("link", { name: "Apply for access" })).toHaveAttribute("href", "/apply");
    await expect(page.getByText("The chapter's own text")).toHaveCount(0);

    const [first] = await operatorChapters(page.request);
    await page.goto(`/${first!.slug}`);
    await hydrated(page);
    await page.getByRole("button", { name: "Open the chapter list" }).click();
    const lock = page.getByRole("group", { name: "Level" }).getByRole("button", { name: "Architect" });
    await expect(lock).toHaveAccessibleDescription(/^Locked/);
    // The drawer slides in; a forced click skips Playwright's wait for it to settle.
    await expect(lock).toBeInViewport({ ratio: 1 });
    await lock.click({ force: true });
    // The reader stays where they are and sees what the level holds.
    await expect(page).toHaveURL(new RegExp(`/${first!.slug}$`));
    await expect(lock).toHaveAttribute("aria-expanded", "true");
    const panel = page.getByRole("dialog", { name: "Chapters" }).getByTestId("level-teasers");
    await expect(panel.getByText(title)).toBeVisible();
    await expect(panel.getByText(teaser)).toBeVisible();
    await expect(panel.getByRole("link", { name: "Enter The System" })).toHaveAttribute("href", "/resume");
    await panel.getByRole("link", { name: "Apply for access" }).click();
    await expect(page).toHaveURL(/\/apply$/);
  } finally {
    // Other suites expect the spec's plain lock (no teasers): the chapter goes.
    await page.request.post("/api/admin/login", { data: (await import("./admin-fixtures.ts")).adminCredentials() });
    expect((await page.request.delete(`/api/admin/chapters/${created.id}`)).status()).toBe(200);
  }
});
