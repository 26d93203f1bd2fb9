/**
 * The operator's toolkit in the browser (issue 14: 1-3): the history in the edit dialog with its
 * diff and "Restore this version"; saving a chapter as a draft and publishing it; opening a draft
 * chapter as a reader of a tier would see it.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./page-test.ts";
import { adminLogin, chapterCard, createChapter, showLevel, unique } from "./admin-fixtures.ts";
import { seriousViolations } from "./axe.ts";
import { hydrated } from "./reader-helpers.ts";

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

/*
 * Issue 44: 8. The panel is the operator's own: its header offers no reader's links (not
 * 'Enter The System' and 'Apply' as if nobody were signed in), it keeps the site's theme (dark
 * stays dark, light stays light), the draft preview's label is in the book's type and colours,
 * and a subsection added to a draft chapter says it waits in the draft.
 */
for (const [width, theme] of [
  [390, "dark"],
  [1280, "light"],
] as const) {
  test(`at ${width} px, ${theme}: the panel is the operator's own`, async ({ page, context }) => {
    await page.setViewportSize({ width, height: 844 });
    // The site's theme: the default (dark, nothing stored), or the one the visitor chose.
    if (theme === "light") await context.addInitScript(() => localStorage.setItem("book-theme", "light"));
    await adminLogin(page);
    await expect(page.locator("html")).toHaveClass(theme === "dark" ? /\bdark\b/ : /^(?!.*\bdark\b)/);
    const header = page.locator("body > header");
    await expect(header.getByRole("link", { name: "Enter The System" })).toHaveCount(0);
    await expect(header.getByRole("link", { name: "Apply" })).toHaveCount(0);
    await expect(header.getByRole("navigation", { name: "Account" })).toHaveCount(0);
    await expect(header.getByRole("link", { name: "The System" })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    const title = unique("Waiting Draft");
    const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
    const created = await page.request.post("/api/admin/chapters", {
      data: { slug, title, content: "A chapter still being written.", readingTime: 3, order: 802, level: "Mastermind", draft: true },
    });
    expect(created.status()).toBe(201);
    await page.reload();
    await hydrated(page);
    await showLevel(page, "Mastermind");
    const card = chapterCard(page, title);
    await card.getByRole("button", { name: `Add subsection to ${title}` }).click();
    const add = page.getByRole("dialog", { name: "Add Subsection" });
    await expect(add.getByTestId("waits-in-draft")).toHaveText("This chapter is a draft: the subsection waits in it, and readers see it once the chapter is published.");
    expect(await seriousViolations(page)).toEqual([]);
    await add.getByRole("button", { name: "Cancel" }).click();

    await card.getByRole("button", { name: `Expand ${title}` }).click();
    const [preview] = await Promise.all([context.waitForEvent("page"), card.getByRole("link", { name: `Preview the draft of ${title} as Mastermind (opens in a new tab)` }).click()]);
    const label = preview.getByRole("status").filter({ hasText: "Preview as Mastermind · draft, not published" });
    await expect(label).toBeVisible();
    const [look, book] = await Promise.all([
      label.evaluate((el) => ({ font: getComputedStyle(el).fontFamily, background: getComputedStyle(el).backgroundColor, color: getComputedStyle(el).color })),
      preview.locator("body").evaluate((el) => {
        const probe = document.createElement("span");
        probe.style.cssText = "background:var(--color-accent);color:var(--color-accent-ink)";
        el.append(probe);
        const colours = { background: getComputedStyle(probe).backgroundColor, color: getComputedStyle(probe).color };
        probe.remove();
        return { font: getComputedStyle(el).fontFamily, ...colours };
      }),
    ]);
    expect(look).toEqual(book);
    await preview.close();
  });
}
