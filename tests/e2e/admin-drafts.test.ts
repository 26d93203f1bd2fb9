/**
 * The operator's toolkit in the browser (issue 14: 1-3): the history in the edit dialog with its
 * diff and "Restore this version"; saving a chapter as a draft and publishing it; opening a draft
 * chapter as a reader of a tier would see it.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./page-test.ts";
import { adminLogin, chapterCard, createChapter, showLevel, unique } from "./admin-fixtures.ts";

const toast = (page: Page) => page.getByRole("region", { name: "Notifications (F8)" });

test("the history shows what changed and restores an earlier version", async ({ page }) => {
  await adminLogin(page);
  const chapter = await createChapter(page, { content: "## Opening\n\nThe words first written.\n\nA closing line." });
  const put = await page.request.put(`/api/admin/chapters/${chapter.id}`, {
    data: { slug: chapter.slug, title: chapter.title, content: "## Opening\n\nThe words written over them.\n\nA closing line.", readingTime: 7, order: chapter.order, level: "Mastermind" },
  });
  expect(put.status()).toBe(200);
  await page.reload();
  await showLevel(page, "Mastermind");
  await chapterCard(page, chapter.title).getByRole("button", { name: `Edit ${chapter.title}` }).click();
  const edit = page.getByRole("dialog", { name: "Edit Chapter" });
  await edit.getByRole("button", { name: "Show history" }).click();
  await expect(edit.getByRole("list", { name: "Earlier versions" }).getByRole("button")).toHaveCount(1);
  const diff = edit.getByTestId("revision-diff");
  await expect(diff.locator("del", { hasText: "The words first written." })).toBeVisible();
  await expect(diff.locator("ins", { hasText: "The words written over them." })).toBeVisible();
  await expect(diff.locator("div", { hasText: "A closing line." })).toBeVisible();

  await edit.getByRole("button", { name: "Restore this version" }).click();
  await expect(toast(page)).toContainText("Version restored");
  await expect(edit).toBeHidden();
  const stored = (await (await page.request.get("/api/admin/chapters")).json()) as Array<{ id: number; content: string }>;
  expect(stored.find((c) => c.id === chapter.id)!.content).toContain("The words first written.");
  // The restore is itself a save: the version it replaced is now in the history.
  await chapterCard(page, chapter.title).getByRole("button", { name: `Edit ${chapter.title}` }).click();
  await edit.getByRole("button", { name: "Show history" }).click();
  await expect(edit.getByRole("list", { name: "Earlier versions" }).getByRole("button")).toHaveCount(2);
});

test("a chapter saved as a draft reaches no reader until it is published", async ({ page }) => {
  await adminLogin(page);
  await showLevel(page, "Mastermind");
  await page.getByRole("button", { name: "Create New Chapter" }).first().click();
  const create = page.getByRole("dialog", { name: "Create New Chapter" });
  const title = unique("Draft Chapter");
  await create.getByLabel("Title").fill(title);
  await create.getByLabel("Level").selectOption("Mastermind");
  // Below the orders other admin tests give their chapters (900 and up), which read the list's end.
  await create.getByLabel("Order").fill("800");
  await create.getByLabel("Content").fill("Words not ready for anyone.");
  await create.getByRole("button", { name: "Save as draft" }).click();
  await expect(toast(page)).toContainText("Chapter saved as a draft: readers do not see it until you publish it");
  const card = chapterCard(page, title);
  await expect(card.getByText("Draft", { exact: true })).toBeVisible();
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  const listed = async () => ((await (await page.request.get(`/api/chapters?fresh=${Date.now()}`)).json()) as Array<{ slug: string }>).map((c) => c.slug);
  expect(await listed()).not.toContain(slug);
  expect((await page.request.get(`/api/chapters/${slug}`)).status()).toBe(404);

  await card.getByRole("button", { name: `Edit ${title}` }).click();
  const edit = page.getByRole("dialog", { name: "Edit Chapter" });
  await expect(edit.getByTestId("draft-status")).toContainText("This chapter is a draft");
  await edit.getByRole("button", { name: "Publish now" }).click();
  await expect(toast(page)).toContainText("Chapter published");
  await expect(card.getByText("Draft", { exact: true })).toHaveCount(0);
  expect(await listed()).toContain(slug);
});

test("the tier preview shows a draft as each tier's reader would get it, publishing nothing", async ({ page, context }) => {
  await adminLogin(page);
  const title = unique("Preview Draft");
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  const created = await page.request.post("/api/admin/chapters", {
    data: { slug, title, content: "## Inside\n\nOnly Architect readers will read this.", readingTime: 4, order: 801, level: "Architect", draft: true },
  });
  expect(created.status()).toBe(201);
  await page.reload();
  await showLevel(page, "Architect");
  const card = chapterCard(page, title);
  await card.getByRole("button", { name: `Expand ${title}` }).click();

  const [architect] = await Promise.all([context.waitForEvent("page"), card.getByRole("link", { name: `Preview the draft of ${title} as Architect (opens in a new tab)` }).click()]);
  const errors: string[] = [];
  architect.on("pageerror", (error) => errors.push(error.message));
  await architect.waitForLoadState();
  await expect(architect.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(architect.getByText("Only Architect readers will read this.")).toBeVisible();
  await expect(architect.getByRole("status").filter({ hasText: "Preview as Architect · draft, not published" })).toBeVisible();
  await expect(architect.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex, nofollow");
  // The page reads as a signed-in Architect client's: the header offers the profile, not the sign-in.
  await expect(architect.locator("html")).toHaveAttribute("data-auth", "in");
  // ... and the admin's browser holds no reader session because of it.
  expect(await architect.evaluate(() => localStorage.getItem("systemAuth"))).toBeNull();
  // The page script ran to its end on the preview (no redirect away from a chapter no list holds).
  await architect.waitForLoadState("networkidle");
  expect(architect.url()).toContain(`/admin/preview/`);
  expect(errors).toEqual([]);
  await architect.close();

  const [operator] = await Promise.all([context.waitForEvent("page"), card.getByRole("link", { name: `Preview the draft of ${title} as Operator (opens in a new tab)` }).click()]);
  await expect(operator.getByText("/resume")).toBeVisible();
  await expect(operator.getByText("Only Architect readers will read this.")).toHaveCount(0);
  await operator.close();

  // Nothing was published, and without the admin session there is no preview.
  expect((await page.request.get(`/api/chapters/${slug}`)).status()).toBe(404);
  const stranger = await context.browser()!.newPage();
  const refused = await stranger.goto(new URL(`/admin/preview/${(await created.json()).id}?tier=Architect&version=draft`, page.url()).href);
  expect(refused!.status()).toBe(401);
  await expect(stranger.getByText("Only Architect readers will read this.")).toHaveCount(0);
  await stranger.close();
});
