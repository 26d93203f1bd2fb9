/**
 * A level of many chapters (issue 45: 2; the panel mounts a long level's cards in slices): every
 * card comes, the counts are the whole level's, and a keyboard move of a card far down the list
 * sends the whole level's order. The 150 chapters are the test's own list, served in place of the
 * Architect level's (the shared data and the built site stay as they are); the PUT the panel
 * sends is answered as the server would.
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./page-test.ts";
import { adminLogin, chapterCard, showLevel } from "./admin-fixtures.ts";
import { hydrated } from "./reader-helpers.ts";

const COUNT = 150;
const title = (n: number) => `Long Level ${String(n).padStart(3, "0")}`;

/** The real chapter list with the Architect level replaced by COUNT chapters kept here; answers the reorders sent. */
async function longArchitectLevel(page: Page) {
  const now = new Date().toISOString();
  let ours = Array.from({ length: COUNT }, (_, i) => ({
    id: 9_000_001 + i,
    slug: `long-level-${i + 1}`,
    title: title(i + 1),
    content: `Body of ${title(i + 1)}.`,
    readingTime: 5,
    order: i + 1,
    level: "Architect",
    teaser: null,
    createdAt: now,
    updatedAt: now,
    status: "published",
  }));
  const reorders: number[][] = [];
  let others: { level: string | null }[] | null = null;
  await page.route("**/api/admin/chapters", async (route) => {
    if (route.request().method() !== "GET") return route.continue();
    if (!others) others = ((await (await route.fetch()).json()) as { level: string | null }[]).filter((c) => c.level !== "Architect");
    await route.fulfill({ json: [...others, ...ours] });
  });
  await page.route("**/api/admin/chapters/reorder", async (route) => {
    const ids = (route.request().postDataJSON() as { chapterIds: number[] }).chapterIds;
    reorders.push(ids);
    if (ids.every((id) => id >= 9_000_001)) ours = ours.map((c) => ({ ...c, order: ids.indexOf(c.id) + 1 }));
    await route.fulfill({ json: { ok: true } });
  });
  return { reorders, others: () => others ?? [] };
}

test("a level of 150 chapters: every card comes, the counts are right, a keyboard move far down saves the whole order", async ({ page }) => {
  await adminLogin(page);
  const level = await longArchitectLevel(page);
  await page.reload();
  await hydrated(page);
  await expect(page.getByRole("tab", { name: `Architect (${COUNT})` })).toBeVisible();
  const operator = level.others().filter((c) => (c.level ?? "Operator") === "Operator").length;
  expect(operator).toBeGreaterThan(0);
  await expect(page.getByRole("tab", { name: `Operator (${operator})` })).toBeVisible();
  await showLevel(page, "Architect");

  const list = page.getByRole("list", { name: "Architect chapters" });
  await expect(list.locator(":scope > li")).toHaveCount(COUNT);
  expect(await list.locator(":scope > li h3").allTextContents()).toEqual(Array.from({ length: COUNT }, (_, i) => title(i + 1)));
  // The last card, reached by scrolling, with its actions.
  const last = chapterCard(page, title(COUNT));
  await last.scrollIntoViewIfNeeded();
  await expect(last.getByRole("button", { name: `Edit ${title(COUNT)}` })).toBeVisible();

  // Alt+ArrowUp on the 140th card.
  const card = chapterCard(page, title(140));
  await card.focus();
  await page.keyboard.press("Alt+ArrowUp");
  await expect(page.getByTestId("announcer")).toHaveText(`Moved ${title(140)} to position 139 of ${COUNT}`);
  await expect(chapterCard(page, title(140))).toBeFocused();
  await expect.poll(() => level.reorders.length).toBe(1);
  const expected = Array.from({ length: COUNT }, (_, i) => 9_000_001 + i);
  [expected[138], expected[139]] = [expected[139]!, expected[138]!];
  expect(level.reorders[0]).toEqual(expected);
  await expect(list.locator(":scope > li").nth(138).locator("h3")).toHaveText(title(140));
  await expect(list.locator(":scope > li").nth(139).locator("h3")).toHaveText(title(139));
  await expect(list.locator(":scope > li")).toHaveCount(COUNT);
});
