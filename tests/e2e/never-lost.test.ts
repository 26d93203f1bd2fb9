/**
 * Never lost in a chapter (issue 20: 5): at every scroll position, on a phone and on a desktop,
 * before and after the islands wake, one visible control opens the chapter list: the chapter
 * bar's menu button, in the sticky chapter title (48 px) with the progress bar. "On this page"
 * lists the chapter's numbered subsections (beside the text on wide screens, in the drawer below
 * that), marks the one being read and jumps there.
 */
import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./page-test.ts";
import { awake, hydrated, operatorChapters, type ListedChapter } from "./reader-helpers.ts";

let chapter: ListedChapter;
let parts: Array<{ title: string; order: number; slug: string }>;

test.beforeAll(async ({ request }) => {
  [chapter] = await operatorChapters(request);
  parts = ((await (await request.get(`/api/chapters/${chapter!.id}/subsections`)).json()) as typeof parts).sort((a, b) => a.order - b.order);
  expect(parts.length).toBeGreaterThanOrEqual(3);
});

/** The controls that open the chapter drawer and are visible now (the drawer's own excluded). */
const openers = (page: Page): Locator => page.locator("[aria-controls='chapter-drawer']:not(dialog *)").locator("visible=true");

/** The "On this page" items of a list, as the reader reads them. */
const items = (list: Locator) => list.getByRole("link");

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  for (const phase of ["before the islands wake", "after the islands wake"] as const) {
    test(`${viewport.width} px, ${phase}: one visible control opens the chapter list at the top, the middle and the end of a chapter`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.goto(`/${chapter.slug}`);
      if (phase === "after the islands wake") await awake(page);
      else await hydrated(page);
      const height = await page.evaluate(() => document.documentElement.scrollHeight - innerHeight);
      expect(height, "a chapter long enough to be lost in").toBeGreaterThan(viewport.height * 2);
      for (const fraction of [0, 0.5, 1]) {
        await page.mouse.move(viewport.width / 2, viewport.height / 2);
        // Scrolled as a reader does (the rail hides on the way down).
        const y = Math.round(height * fraction);
        await page.evaluate((top) => window.scrollTo(0, top), Math.max(0, y - 300));
        if (y > 0) await page.mouse.wheel(0, 300);
        await page.waitForTimeout(250);
        const at = `${fraction * 100}%`;
        await expect(openers(page), at).toHaveCount(1);
        const control = openers(page);
        await expect(control, at).toBeInViewport({ ratio: 1 });
        // In the one bar at the top of the window (issue 34: 8), with the progress bar along it.
        const bar = page.locator("body > header");
        expect((await bar.boundingBox())!.height, at).toBeLessThanOrEqual(57);
        expect((await bar.boundingBox())!.y, at).toBe(0);
        await expect(bar.getByRole("button", { name: "Open the chapter list" }), at).toBeVisible();
        await expect(bar.getByRole("progressbar", { name: "Reading progress" }), at).toBeAttached();
        const scrolled = await page.evaluate(() => scrollY);
        await control.click();
        const drawer = page.getByRole("dialog", { name: "Chapters" });
        await expect(drawer, at).toBeVisible();
        await expect(drawer.getByTestId("drawer-list").getByRole("link", { name: chapter.title }), at).toBeVisible();
        await page.keyboard.press("Escape");
        await expect(drawer, at).toBeHidden();
        // Opening and closing the list leaves the reader where they were.
        expect(Math.abs((await page.evaluate(() => scrollY)) - scrolled), at).toBeLessThanOrEqual(1);
      }
    });
  }
}

test.describe("On this page, beside the text on a wide screen", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("lists the numbered subsections, marks the one being read and jumps to one", async ({ page }) => {
    await page.goto(`/${chapter.slug}`);
    await hydrated(page);
    const list = page.getByRole("navigation", { name: "On this page" }).locator("visible=true");
    await expect(list).toHaveCount(1);
    await expect(items(list)).toHaveText(parts.map((part, i) => `${String(i + 1).padStart(2, "0")} ${part.title}`));
    // Beside the text, not over it.
    const text = (await page.locator("article .chapter-content").first().boundingBox())!;
    expect((await list.boundingBox())!.x).toBeGreaterThanOrEqual(text.x + text.width);
    await expect(list.locator("[aria-current]")).toHaveCount(0);

    await items(list).nth(1).click();
    await expect(page).toHaveURL(new RegExp(`#${parts[1]!.slug}$`));
    const heading = page.getByRole("heading", { level: 2, name: parts[1]!.title });
    await expect(heading).toBeInViewport();
    // The jump lands under the chapter bar, not behind it; the list follows, and stays in view.
    expect((await heading.boundingBox())!.y).toBeGreaterThan(48);
    await expect(items(list).nth(1)).toHaveAttribute("aria-current", "location");
    await expect(list).toBeInViewport();

    await page.getByRole("heading", { level: 2, name: parts[2]!.title }).scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, 200));
    await expect(items(list).nth(2)).toHaveAttribute("aria-current", "location");
    await expect(list.locator("[aria-current]")).toHaveCount(1);
  });
});

test.describe("On this page, in the drawer on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  for (const phase of ["before the islands wake", "after the islands wake"] as const) {
    test(`${phase}: the drawer lists the subsections; choosing one closes it and jumps there, marked`, async ({ page }) => {
      await page.goto(`/${chapter.slug}`);
      if (phase === "after the islands wake") await awake(page);
      else await hydrated(page);
      // Not beside the text: there is no room.
      await expect(page.getByRole("navigation", { name: "On this page" }).locator("visible=true")).toHaveCount(0);
      await page.getByRole("button", { name: "Open the chapter list" }).click();
      const drawer = page.getByRole("dialog", { name: "Chapters" });
      const list = drawer.getByRole("navigation", { name: "On this page" });
      await expect(items(list)).toHaveText(parts.map((part, i) => `${String(i + 1).padStart(2, "0")} ${part.title}`));
      await items(list).nth(2).click();
      await expect(drawer).toBeHidden();
      await expect(page).toHaveURL(new RegExp(`#${parts[2]!.slug}$`));
      const heading = page.getByRole("heading", { level: 2, name: parts[2]!.title });
      await expect(heading).toBeInViewport();
      expect((await heading.boundingBox())!.y).toBeGreaterThan(48);
      // The list marks it, and the menu opens the drawer again where the reader is.
      await page.getByRole("button", { name: "Open the chapter list" }).click();
      await expect(drawer).toBeVisible();
      await expect(items(list).nth(2)).toHaveAttribute("aria-current", "location");
      await expect(heading).toBeInViewport();
    });
  }
});
