/**
 * Reordering chapters within a level and subsections within a chapter, by drag and by keyboard
 * (SPEC.md sections 2 and 4; issue 6): the list moves at once, the move is announced, the server
 * stores it, and a refused reorder reloads the list.
 */
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./page-test.ts";
import { adminLogin, chapterCard, createChapter, createSubsection, showLevel, unique } from "./admin-fixtures.ts";

// Tall enough that the dragged item and its target are on screen together.
test.use({ viewport: { width: 1280, height: 1400 } });

const toast = (page: Page) => page.getByRole("region", { name: "Notifications (F8)" });

/**
 * Drags by `handle` onto the upper part of `target` in small pointer steps with pauses: sortablejs
 * (pointer fallback) checks where the pointer is every 50 ms.
 */
async function drag(page: Page, handle: Locator, target: Locator) {
  await target.scrollIntoViewIfNeeded();
  await handle.scrollIntoViewIfNeeded();
  const from = (await handle.boundingBox())!;
  const to = (await target.boundingBox())!;
  const x = from.x + from.width / 2;
  const y = from.y + from.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  const steps = 12;
  for (let i = 1; i <= steps; i++) {
    await page.mouse.move(x, y + ((to.y + 8 - y) * i) / steps);
    await page.waitForTimeout(60);
  }
  await page.mouse.up();
}

async function storedOrder(page: Page, ids: number[]): Promise<number[]> {
  const all = (await (await page.request.get("/api/admin/chapters")).json()) as { id: number; order: number }[];
  return all
    .filter((c) => ids.includes(c.id))
    .sort((a, b) => a.order - b.order)
    .map((c) => c.id);
}

/** The titles of the level's chapters as the panel lists them. */
async function listedTitles(page: Page): Promise<string[]> {
  return page.getByRole("list", { name: "Mastermind chapters" }).locator(":scope > li h3").allTextContents();
}

test.describe("chapters", () => {
  test.beforeEach(async ({ page }) => {
    await adminLogin(page);
  });

  test("drag a chapter above another: the list moves, the server stores it, a toast confirms", async ({ page }) => {
    const a = await createChapter(page, { title: unique("Drag A"), order: 9900 });
    const b = await createChapter(page, { title: unique("Drag B"), order: 9901 });
    const c = await createChapter(page, { title: unique("Drag C"), order: 9902 });
    await page.reload();
    await showLevel(page, "Mastermind");
    await drag(page, chapterCard(page, c.title).locator("[data-drag-handle='chapter']"), chapterCard(page, a.title));
    const titles = await listedTitles(page);
    expect(titles.slice(-3)).toEqual([c.title, a.title, b.title]);
    await expect(toast(page)).toContainText("Chapters reordered successfully");
    await expect(page.getByTestId("announcer")).toHaveText(new RegExp(`^Moved ${c.title} to position \\d+ of \\d+$`));
    expect(await storedOrder(page, [a.id, b.id, c.id])).toEqual([c.id, a.id, b.id]);
  });

  test("keyboard: Alt+ArrowUp moves the focused card, keeps focus on it and announces the move", async ({ page }) => {
    const a = await createChapter(page, { title: unique("Key A"), order: 9910 });
    const b = await createChapter(page, { title: unique("Key B"), order: 9911 });
    await page.reload();
    await showLevel(page, "Mastermind");
    await expect(page.getByText("press Alt+ArrowUp or Alt+ArrowDown")).toBeVisible();
    const before = await listedTitles(page);
    const total = before.length;
    const position = before.indexOf(b.title) + 1;
    const card = chapterCard(page, b.title);
    await card.focus();
    await page.keyboard.press("Alt+ArrowUp");
    await expect(page.getByTestId("announcer")).toHaveText(`Moved ${b.title} to position ${position - 1} of ${total}`);
    await expect(chapterCard(page, b.title)).toBeFocused();
    await expect(toast(page)).toContainText("Chapters reordered successfully");
    expect((await listedTitles(page)).slice(position - 2, position)).toEqual([b.title, a.title]);
    expect(await storedOrder(page, [a.id, b.id])).toEqual([b.id, a.id]);
    // And back down.
    await chapterCard(page, b.title).focus();
    await page.keyboard.press("Alt+ArrowDown");
    await expect(page.getByTestId("announcer")).toHaveText(`Moved ${b.title} to position ${position} of ${total}`);
    await expect.poll(() => storedOrder(page, [a.id, b.id])).toEqual([a.id, b.id]);
  });

  test("a refused reorder reloads the list and shows the server's message", async ({ page }) => {
    const a = await createChapter(page, { title: unique("Refused A"), order: 9920 });
    const b = await createChapter(page, { title: unique("Refused B"), order: 9921 });
    await page.reload();
    await showLevel(page, "Mastermind");
    await page.route("**/api/admin/chapters/reorder", (route) =>
      route.fulfill({ status: 409, contentType: "application/json", body: JSON.stringify({ error: { code: "conflict", message: "The list changed meanwhile." } }) }),
    );
    await chapterCard(page, b.title).focus();
    await page.keyboard.press("Alt+ArrowUp");
    await expect(toast(page)).toContainText("Failed to reorder chapters: 409: The list changed meanwhile.");
    // The toast shows when the refusal arrives; the reloaded list follows it.
    await expect
      .poll(async () => {
        const titles = await listedTitles(page);
        return titles.indexOf(a.title) < titles.indexOf(b.title);
      })
      .toBe(true);
  });
});

test.describe("subsections", () => {
  test("drag and keyboard reorder within a chapter", async ({ page }) => {
    await adminLogin(page);
    const chapter = await createChapter(page, { order: 9930 });
    const one = await createSubsection(page, chapter.id, "Part One", 0);
    const two = await createSubsection(page, chapter.id, "Part Two", 1);
    const three = await createSubsection(page, chapter.id, "Part Three", 2);
    await page.reload();
    await showLevel(page, "Mastermind");
    const card = chapterCard(page, chapter.title);
    await card.getByRole("button", { name: `Expand ${chapter.title}` }).click();
    const list = card.getByRole("list", { name: "Subsections" });
    const row = (title: string) => list.getByRole("listitem").filter({ hasText: title });
    await expect(list.getByRole("listitem")).toHaveCount(3);

    // A drag starts only after the pointer travels 8 px (sortablejs shows its floating copy then).
    const handle = row("Part Three").locator("[data-drag-handle='subsection']");
    await handle.scrollIntoViewIfNeeded();
    const box = (await handle.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2 - 5, { steps: 3 });
    await page.waitForTimeout(150);
    await expect(page.locator(".sortable-fallback")).toHaveCount(0);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2 - 10, { steps: 2 });
    await expect(page.locator(".sortable-fallback")).toHaveCount(1);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForTimeout(150);
    await page.mouse.up();
    await expect(page.locator(".sortable-fallback")).toHaveCount(0);
    await expect(list.getByRole("listitem").last()).toContainText("Part Three");

    await drag(page, handle, row("Part One"));
    await expect(list.getByRole("listitem").first()).toContainText("Part Three");
    await expect(toast(page)).toContainText("Subsection reordered successfully");
    const stored = async () =>
      ((await (await page.request.get(`/api/chapters/${chapter.id}/subsections`)).json()) as { id: number }[]).map((s) => s.id);
    await expect.poll(stored).toEqual([three.id, one.id, two.id]);

    await row("Part Two").focus();
    await page.keyboard.press("Alt+ArrowUp");
    await expect(page.getByTestId("announcer")).toHaveText("Moved Part Two to position 2 of 3");
    await expect(row("Part Two")).toBeFocused();
    await expect.poll(stored).toEqual([three.id, two.id, one.id]);
  });

  test("a refused subsection reorder reloads the list", async ({ page }) => {
    await adminLogin(page);
    const chapter = await createChapter(page, { order: 9940 });
    await createSubsection(page, chapter.id, "Keep First", 0);
    await createSubsection(page, chapter.id, "Keep Second", 1);
    await page.reload();
    await showLevel(page, "Mastermind");
    const card = chapterCard(page, chapter.title);
    await card.getByRole("button", { name: `Expand ${chapter.title}` }).click();
    const rows = card.getByRole("list", { name: "Subsections" }).getByRole("listitem");
    await expect(rows).toHaveCount(2);
    await page.route("**/api/admin/subsections/reorder", (route) => route.fulfill({ status: 500, body: "" }));
    await rows.nth(1).focus();
    await page.keyboard.press("Alt+ArrowUp");
    await expect(toast(page)).toContainText("Failed to reorder subsections");
    await expect(rows.first()).toContainText("Keep First");
  });
});
