/**
 * Islands that wake on the reader's first touch (issue 13, client:interaction): until then a page
 * runs only its page script; a tap or a key that lands before an island is up is not lost; the
 * island takes over what the page script started. The island's files are held back on purpose
 * (page.route), so the touch surely lands first.
 */
import type { Locator, Page } from "@playwright/test";
import { hold, PAGE_SCRIPT } from "./hold.ts";
import { expect, test } from "./page-test.ts";
import { asleep, hydrated, operatorChapters, type ListedChapter } from "./reader-helpers.ts";
import { traced } from "./trace.ts";

let chapters: ListedChapter[];

test.beforeAll(async ({ request }) => {
  chapters = await operatorChapters(request);
});

/** Holds the requests for one island's component file until `release` is called. */
async function holdIsland(page: Page, name: string): Promise<{ release: () => void }> {
  return { release: await hold(page, new RegExp(`/_astro/${name}\\.[^/]+\\.js$`)) };
}

/**
 * Has the drawer's next read of `open` (the island's first render) answer `value`, whatever the
 * drawer is: as when it opens or closes between that render and the island's commit.
 */
function nextReadOfOpen(page: Page, value: boolean): Promise<void> {
  return page.evaluate((value) => {
    const drawer = document.getElementById("chapter-drawer")!;
    const open = Object.getOwnPropertyDescriptor(HTMLDialogElement.prototype, "open")!;
    Object.defineProperty(drawer, "open", {
      configurable: true,
      get() {
        delete (drawer as { open?: boolean }).open;
        return value;
      },
      set: open.set,
    });
  }, value);
}

/**
 * The navigator's own drawer, once it has taken over one opened before it was up: `close` closes
 * it, the focus goes back to the menu, which says so, and opens it again as ever.
 */
async function islandOwnsDrawer(menu: Locator, drawer: Locator, close: () => Promise<void>): Promise<void> {
  await close();
  await expect(drawer).toBeHidden();
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(menu).toBeFocused();
  await menu.click();
  await expect(drawer).toBeVisible();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
}

const navigatorUp = (page: Page) => page.waitForFunction(() => !document.querySelector("astro-island[ssr] #chapter-drawer"), undefined, { timeout: 10_000 });

test("until the reader touches it, a chapter page runs its page script and no island", async ({ page }) => {
  const scripts: string[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() === "script") scripts.push(new URL(response.url()).pathname);
  });
  await page.goto(`/${chapters[0]!.slug}`);
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(1500);
  expect(scripts).toHaveLength(1);
  expect(scripts[0]).toMatch(PAGE_SCRIPT);
  expect(await asleep(page, "Navigator")).toBe(true);
  expect(await asleep(page, "Toasts")).toBe(true);
  // A reader who only reads never downloads the islands' files (issue 20: 2) ...
  expect(await page.locator('link[rel="prefetch"]').count()).toBe(0);
  // ... and the first touch fetches them into the cache, without running them.
  const fetched: string[] = [];
  page.on("requestfinished", (request) => fetched.push(new URL(request.url()).pathname));
  await page.mouse.move(600, 400);
  await page.mouse.down();
  await page.mouse.up();
  await expect.poll(() => fetched.some((path) => /\/Navigator\.[\w-]+\.js$/.test(path))).toBe(true);
  expect(await page.locator('link[rel="prefetch"][href*="/Navigator."]').count()).toBe(1);
  expect(await asleep(page, "Navigator")).toBe(true);
});

test("a tap on the menu before the navigator is up opens the drawer at once; the navigator then takes it over", async ({ page }) => {
  const navigator = await holdIsland(page, "Navigator");
  await page.goto(`/${chapters[0]!.slug}`);
  await hydrated(page);
  const toggle = page.getByRole("button", { name: "Open the chapter list" });
  const drawer = page.getByRole("dialog", { name: "Chapters" });
  await toggle.click();
  await expect(drawer).toBeVisible();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe("hidden");
  expect(await asleep(page, "Navigator")).toBe(true);

  navigator.release();
  await navigatorUp(page);
  await expect(drawer).toBeVisible();
  await expect(drawer.getByRole("link", { name: chapters[0]!.title })).toHaveAttribute("aria-current", "page");
  // The island's own drawer now: Escape, the focus back on the menu, aria-expanded.
  await islandOwnsDrawer(toggle, drawer, () => page.keyboard.press("Escape"));
});

test("a tap that lands while the navigator hydrates, after its first render, keeps the drawer open", async ({ page }) => {
  const navigator = await holdIsland(page, "Navigator");
  await page.goto(`/${chapters[0]!.slug}`);
  await hydrated(page);
  const drawer = page.getByRole("dialog", { name: "Chapters" });
  await page.getByRole("button", { name: "Open the chapter list" }).click();
  await expect(drawer).toBeVisible();
  // The island's first render reads the drawer as it was before the tap (closed), as it does when
  // the tap lands between that render and its commit (a CI run saw the drawer closed then).
  await nextReadOfOpen(page, false);
  navigator.release();
  await navigatorUp(page);
  await page.waitForTimeout(300);
  await expect(drawer).toBeVisible();
  await expect(drawer.getByRole("group", { name: "Level" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Open the chapter list" })).toHaveAttribute("aria-expanded", "true");
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
});

test("an Escape that lands while the navigator hydrates, after its first render read the drawer open, closes it for good", async ({ page }) => {
  const navigator = await holdIsland(page, "Navigator");
  await page.goto(`/${chapters[0]!.slug}`);
  await hydrated(page);
  const drawer = page.getByRole("dialog", { name: "Chapters" });
  const toggle = page.getByRole("button", { name: "Open the chapter list" });
  await toggle.click();
  await expect.poll(() => drawer.evaluate((element) => element.matches(":modal"))).toBe(true);
  await page.keyboard.press("Escape");
  await expect(drawer).toBeHidden();
  // The island's first render reads the drawer as it was before the Escape (open), as it does when
  // the key lands between that render and its commit (a run on a loaded machine saw it open again).
  await nextReadOfOpen(page, true);
  navigator.release();
  await navigatorUp(page);
  await page.waitForTimeout(300);
  await expect(drawer).toBeHidden();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
});

test("a tap on the drawer's close button while the navigator loads is kept, and closes it once the navigator is up", async ({ page }) => {
  const navigator = await holdIsland(page, "Navigator");
  await page.goto(`/${chapters[0]!.slug}`);
  await hydrated(page);
  const drawer = page.getByRole("dialog", { name: "Chapters" });
  await page.getByRole("button", { name: "Open the chapter list" }).click();
  await drawer.getByRole("button", { name: "Close the chapter list" }).click();
  await page.waitForTimeout(300);
  await expect(drawer).toBeVisible();
  navigator.release();
  await expect(drawer).toBeHidden();
  await expect(page.getByRole("button", { name: "Open the chapter list" })).toHaveAttribute("aria-expanded", "false");
});

test("a locked level chosen while the navigator loads still goes to /resume", async ({ page }) => {
  const navigator = await holdIsland(page, "Navigator");
  await page.goto(`/${chapters[0]!.slug}`);
  await hydrated(page);
  await page.getByRole("button", { name: "Open the chapter list" }).click();
  const architect = page.getByRole("dialog").getByRole("button", { name: "Architect" });
  await expect(architect).toBeInViewport({ ratio: 1 });
  await architect.click({ force: true });
  await page.waitForTimeout(300);
  await expect(page).toHaveURL(new RegExp(`/${chapters[0]!.slug}$`));
  navigator.release();
  await expect(page).toHaveURL(/\/resume\?level=Architect$/);
});

test("a key pressed before any island is up moves to the next chapter", async ({ page }) => {
  await holdIsland(page, "Navigator");
  await page.goto(`/${chapters[0]!.slug}`);
  // (The page script answers it, once it has come: after the first paint, decision 0032.)
  await hydrated(page);
  await page.keyboard.press("l");
  await expect(page).toHaveURL(`/${chapters[1]!.slug}`);
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test("a tap on the header's menu before the navigator is up opens the drawer, which the navigator then closes", async ({ page }) => {
    const navigator = await holdIsland(page, "Navigator");
    await page.goto(`/${chapters[0]!.slug}`);
    await hydrated(page);
    const drawer = page.getByRole("dialog", { name: "Chapters" });
    await page.getByRole("button", { name: "Open the chapter list" }).tap();
    await expect(drawer).toBeVisible();
    navigator.release();
    await navigatorUp(page);
    await drawer.getByRole("button", { name: "Close the chapter list" }).tap();
    await expect(drawer).toBeHidden();
  });

  // A finger, not a mouse: a mouse pointing at the menu wakes the navigator before its click, by
  // design (src/directives/interaction.ts), so its files may be on their way by then; a finger
  // has no pointing, and its press waits for the tap to be answered and drawn (issue 33: 3).
  test("the tap that opens the drawer is answered before anything else starts: the islands' files and the navigator come after its frame", async ({ page }) => {
    await page.goto(`/${chapters[0]!.slug}`);
    await hydrated(page);
    await page.evaluate(() => {
      const seen = ((window as unknown as { seen: Record<string, unknown> }).seen = {});
      // What stands when the page has answered the click (this listener runs after the page script's).
      addEventListener("click", () => {
        Object.assign(seen, {
          open: (document.getElementById("chapter-drawer") as HTMLDialogElement).open,
          prefetched: document.querySelectorAll('link[rel="prefetch"]').length,
          scripts: performance.getEntriesByType("resource").filter((entry) => /\/_astro\/Navigator\./.test(entry.name)).length,
          asleep: document.querySelector("astro-island[ssr] #chapter-drawer") !== null,
        });
        // And in the frame that follows: the drawer drawn open, still nothing else started.
        requestAnimationFrame(() => Object.assign(seen, { framePrefetched: document.querySelectorAll('link[rel="prefetch"]').length }));
      });
    });
    await page.getByRole("button", { name: "Open the chapter list" }).tap();
    await expect(page.getByRole("dialog", { name: "Chapters" })).toBeVisible();
    // (The dialog shows as soon as the click is answered; what its frame saw is written when that
    // frame comes, which a read made in between would miss.)
    const seen = () => page.evaluate(() => (window as unknown as { seen: Record<string, unknown> }).seen);
    await expect.poll(seen).toHaveProperty("framePrefetched");
    expect(await seen()).toEqual({ open: true, prefetched: 0, scripts: 0, asleep: true, framePrefetched: 0 });
    // Then both follow.
    await expect(page.locator('link[rel="prefetch"][href*="/Navigator."]')).toHaveCount(1);
    await navigatorUp(page);
  });

  // The tap's frame only shows the drawer: laid out and styled while closed (hidden), it is shown,
  // not yet modal, and made modal once that frame is drawn (src/scripts/page.ts, openAtOnce;
  // issue 33: 3). A modal dialog makes the rest of the page inert, which Chromium applies by
  // styling every element of the page again. Counted in the browser's own trace: elements and
  // layout objects, not times.
  test("the tap's frame styles the drawer alone and lays out next to nothing; the drawer is modal once that frame is drawn", async ({ page, browser }) => {
    await page.goto(`/${chapters[0]!.slug}`);
    await hydrated(page);
    await expect(page.locator("html[data-drawer-ready]")).toHaveCount(1);
    const counts = await page.evaluate(() => ({
      drawer: document.querySelectorAll("#chapter-drawer, #chapter-drawer *").length,
      // Everything else the page shows, which a modal dialog's inertness styles again.
      rest: [...document.querySelectorAll("body *")].filter((element) => !element.closest("#chapter-drawer") && element.getClientRects().length > 0).length,
      laidOut: document.querySelectorAll("#chapter-drawer a").length > 0 && document.getElementById("chapter-drawer")!.getClientRects().length > 0,
    }));
    expect(counts.rest).toBeGreaterThan(60);
    // Closed, it is laid out already, and hidden.
    expect(counts.laidOut).toBe(true);
    await expect(page.getByRole("dialog", { name: "Chapters", includeHidden: true })).toBeHidden();
    const drawer = page.getByRole("dialog", { name: "Chapters" });
    const traceEvents = await traced(browser, page, async () => {
      await page.getByRole("button", { name: "Open the chapter list" }).tap();
      await expect(drawer).toBeVisible();
      await expect.poll(() => drawer.evaluate((element) => element.matches(":modal"))).toBe(true);
    });
    const click = traceEvents.find((event) => event.name === "EventDispatch" && event.args?.data?.type === "click")!;
    const inClick = (name: string) =>
      traceEvents.filter((event) => event.name === name && event.pid === click.pid && event.tid === click.tid && event.ts >= click.ts && event.ts <= click.ts + click.dur!);
    const styled = inClick("UpdateLayoutTree").reduce((sum, event) => sum + (event.args?.elementCount ?? 0), 0);
    const laidOut = inClick("Layout").reduce((sum, event) => sum + (event.args?.beginData?.dirtyObjects ?? 0), 0);
    // At most the drawer's own elements (it turns visible), none of the page's others; and the
    // page's root, whose scroll it locks, and little else laid out (the drawer alone is some 100).
    expect(styled).toBeLessThanOrEqual(counts.drawer + 5);
    expect(laidOut).toBeLessThanOrEqual(10);
    // Modal now: the focus inside; Escape closes it and gives the focus back to the menu.
    await expect(drawer.getByRole("button", { name: "Close the chapter list" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();
    await expect(page.getByRole("button", { name: "Open the chapter list" })).toBeFocused();
    await expect(page.getByRole("button", { name: "Open the chapter list" })).toHaveAttribute("aria-expanded", "false");
  });

  // Before it is modal (while it slides in), the drawer acts as the modal one: the page is
  // dimmed, a press outside it closes it and reaches nothing behind, and so does Escape. (The
  // slide is made to last here, so the test surely acts while it runs.)
  test("while the drawer slides in, the page is dimmed, a press outside it closes it and reaches nothing behind, and Escape closes it", async ({ page }) => {
    // (The navigator kept asleep: the page script answers both taps.)
    await holdIsland(page, "Navigator");
    await page.goto(`/${chapters[0]!.slug}`);
    await hydrated(page);
    await page.addStyleTag({ content: ".drawer[open] { transition-duration: 60s !important }" });
    await page.evaluate(() => {
      const w = window as unknown as { reached: number };
      w.reached = 0;
      document.querySelector("main")!.addEventListener("click", () => w.reached++);
    });
    const drawer = page.getByRole("dialog", { name: "Chapters" });
    const menu = page.getByRole("button", { name: "Open the chapter list" });
    const state = () =>
      drawer.evaluate((element) => {
        const dim = getComputedStyle(document.querySelector(".site-header")!, "::after");
        return { modal: element.matches(":modal"), dimmed: dim.position === "fixed" && dim.backgroundColor === "rgba(0, 0, 0, 0.45)" };
      });
    await menu.tap();
    expect(await state()).toEqual({ modal: false, dimmed: true });
    await page.touchscreen.tap(370, 600);
    await expect(drawer).toBeHidden();
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    expect(await page.evaluate(() => (window as unknown as { reached: number }).reached)).toBe(0);
    await menu.tap();
    expect(await state()).toEqual({ modal: false, dimmed: true });
    await page.keyboard.press("Escape");
    await expect(drawer).toBeHidden();
    await expect(page).toHaveURL(`/${chapters[0]!.slug}`);
  });
});

test("a Tab while the drawer slides in makes it modal at once: the focus moves on inside it, never out behind it", async ({ page }) => {
  // (The navigator kept asleep, and the slide made to last: the page script's drawer, not yet modal.)
  await holdIsland(page, "Navigator");
  await page.goto(`/${chapters[0]!.slug}`);
  await hydrated(page);
  await page.addStyleTag({ content: ".drawer[open] { transition-duration: 60s !important }" });
  const drawer = page.getByRole("dialog", { name: "Chapters" });
  await page.getByRole("button", { name: "Open the chapter list" }).click();
  expect(await drawer.evaluate((element) => element.matches(":modal"))).toBe(false);
  for (const key of ["Shift+Tab", "Shift+Tab", "Tab", "Tab"]) {
    await page.keyboard.press(key);
    // (Inside it, or out of the page: a modal dialog's first control hands a Shift+Tab to the browser.)
    const focus = await drawer.evaluate((element) => ({ modal: element.matches(":modal"), behind: !element.contains(document.activeElement) && document.activeElement !== document.body }));
    expect(focus, key).toEqual({ modal: true, behind: false });
  }
});

test("F8 reaches the notification region before the toasts are up", async ({ page }) => {
  await page.goto("/about");
  await hydrated(page);
  await page.keyboard.press("F8");
  await expect(page.getByRole("region", { name: "Notifications (F8)" })).toBeFocused();
});

test("a notice left by the previous page wakes the toasts and shows once", async ({ page }) => {
  await page.goto("/about");
  await page.evaluate(() => sessionStorage.setItem("pendingNotice", JSON.stringify({ title: "System Exit", description: "You have been logged out" })));
  await page.goto("/apply");
  const region = page.getByRole("region", { name: "Notifications (F8)" });
  await expect(region.getByText("System Exit")).toBeVisible();
  await expect(region.getByText("You have been logged out")).toBeVisible();
  expect(await asleep(page, "Toasts")).toBe(false);
  expect(await asleep(page, "Navigator")).toBe(true);
  await page.reload();
  await page.waitForLoadState("networkidle");
  await expect(region.getByText("System Exit")).toHaveCount(0);
});

test("the rail shows the live list's chapters (a title renamed since the page was rendered) without waking the navigator", async ({ page }) => {
  const [first, ...rest] = chapters;
  const renamed = { ...rest[0]!, title: "A title the page never saw" };
  await page.route("**/api/chapters", (route) => route.fulfill({ json: [first, renamed, ...rest.slice(1)] }));
  await page.goto(`/${first!.slug}`);
  const rail = page.getByRole("navigation", { name: "Chapter rail" });
  await expect(rail.getByRole("link", { name: `01 ${rest[0]!.title}` })).toBeVisible();
  // An anonymous reader's page fetches the list once the reader reaches for it: here a key, once
  // the page script that listens for it has come (after the first paint: decision 0032).
  await hydrated(page);
  await page.keyboard.press("Shift");
  await expect(rail.getByRole("link", { name: `01 ${renamed.title}` })).toBeVisible();
  await expect(rail.locator('[aria-current="page"]')).toHaveAttribute("href", `/${first!.slug}`);
  expect(await asleep(page, "Navigator")).toBe(true);
});

test("a tap on the menu before the page script has come opens and closes the drawer, the browser's way; the navigator takes it over once it comes (decision 0032)", async ({ page }) => {
  const release = await hold(page, PAGE_SCRIPT);
  await page.goto(`/${chapters[0]!.slug}`);
  const menu = page.getByRole("button", { name: "Open the chapter list" });
  const drawer = page.getByRole("dialog", { name: "Chapters" });
  await menu.click();
  await expect(drawer).toBeVisible();
  await expect(drawer.getByTestId("drawer-list").getByRole("link").first()).toBeVisible();
  await drawer.getByRole("button", { name: "Close the chapter list" }).click();
  await expect(drawer).toBeHidden();
  await menu.click();
  await expect(drawer).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.hasAttribute("data-drawer-ready"))).toBe(false);
  expect(await asleep(page, "Navigator")).toBe(true);
  release();
  // The focus the drawer took wakes the navigator, which finds it open.
  await navigatorUp(page);
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await expect(drawer).toBeVisible();
  await islandOwnsDrawer(menu, drawer, () => drawer.getByRole("button", { name: "Close the chapter list" }).click());
});

test("a reader who tabs into the scan before the page script has come wakes it all the same, once it comes (decision 0032)", async ({ page }) => {
  const release = await hold(page, PAGE_SCRIPT);
  await page.goto("/assessment");
  // The skip link, then into the main column: the first answer (radios work without the island).
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("radio").first()).toBeFocused();
  expect(await asleep(page, "AssessmentScan")).toBe(true);
  release();
  // No other key: the focus that is already in it wakes it.
  await page.waitForFunction(() => document.querySelector("form fieldset")?.closest("astro-island")?.hasAttribute("ssr") === false, undefined, { timeout: 15_000 });
  await expect(page.getByRole("radio").first()).toBeFocused();
});

test("/assessment starts its session without React, which wakes on the first touch with nothing the scan does not use", async ({ page }) => {
  const scripts: string[] = [];
  const starts: string[] = [];
  page.on("response", (response) => {
    if (response.request().resourceType() === "script") scripts.push(new URL(response.url()).pathname);
    if (response.request().method() === "POST" && new URL(response.url()).pathname === "/api/assessment/session") starts.push(response.url());
  });
  await page.goto("/assessment");
  await expect(page.getByTestId("progress-text")).toHaveText("1 of 15");
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(1000);
  // The session is created as the page opens (SPEC.md section 4), by a small plain script.
  expect(starts).toHaveLength(1);
  expect(scripts.filter((s) => /\/(AssessmentScan|client|react)\./.test(s))).toEqual([]);
  expect(await asleep(page, "AssessmentScan")).toBe(true);
  // The first question works with a tap before the island is up; the island then takes it over.
  await page.getByRole("radio").nth(2).check();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByTestId("progress-text")).toHaveText("2 of 15");
  expect(scripts.some((s) => /\/AssessmentScan\./.test(s))).toBe(true);
  for (const unused of ["Navigator", "Toasts", "zod", "reader-chapters", "auth"]) {
    expect(scripts.filter((s) => s.includes(`/${unused}.`)), unused).toEqual([]);
  }
  expect(starts).toHaveLength(1);
});
