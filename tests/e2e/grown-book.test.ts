/**
 * The book grows (issue 45: 1): with 300 chapters (the seed's 9 and 291 more, titled like the
 * seed's: tests/support/grown-book.ts), a chapter page's first response still fits the first round
 * trip (<= 14 KB as served, br) and is under 500 B larger than on the seed book; the whole list
 * reaches the rail and the drawer from the one shared, cached list, asking no function anything,
 * moving nothing on the page; and the page's first view stays within 60 KB.
 */
import http from "node:http";
import type { APIRequestContext } from "@playwright/test";
import { firstView } from "../support/first-view.ts";
import { expect, test } from "./page-test.ts";
import { operatorChapters, type ListedChapter } from "./reader-helpers.ts";
import { startSeedSite } from "./server.ts";

const KB = 1024;
const BOOK = 300;

/** The brotli bytes of `url`'s answer as a browser gets it (the second ask: the first fills the CDN's cache). */
async function servedBytes(url: string): Promise<number> {
  const once = () =>
    new Promise<{ encoding: string | undefined; length: number }>((resolve, reject) => {
      http
        .get(url, { headers: { "accept-encoding": "br, gzip" } }, (response) => {
          let length = 0;
          response.on("data", (chunk: Buffer) => (length += chunk.length));
          response.on("end", () => resolve({ encoding: response.headers["content-encoding"], length }));
        })
        .on("error", reject);
    });
  await once();
  const { encoding, length } = await once();
  expect(encoding, url).toBe("br");
  return length;
}

/**
 * The first responses of the pages that carry the navigator: the seed's first and last Operator
 * chapters (the same pages in both books), and /apply and /about.
 */
async function firstResponses(baseUrl: string, seedChapters: ListedChapter[]): Promise<Record<string, number>> {
  const pages = { "first chapter": `/${seedChapters[0]!.slug}`, "the seed's last open chapter": `/${seedChapters.at(-1)!.slug}`, "/apply": "/apply", "/about": "/about" };
  const sizes: Record<string, number> = {};
  for (const [name, path] of Object.entries(pages)) sizes[name] = await servedBytes(`${baseUrl}${path}`);
  return sizes;
}

test.describe.configure({ mode: "serial" });

let book: { url: string; stop: () => Promise<unknown> } | undefined;
let bookRequest: APIRequestContext | undefined;

test.beforeAll(async ({ playwright }, testInfo) => {
  test.setTimeout(180_000);
  book = await startSeedSite(testInfo.parallelIndex, { chapters: BOOK });
  bookRequest = await playwright.request.newContext({ baseURL: book.url });
});

test.afterAll(async () => {
  await bookRequest?.dispose();
  await book?.stop();
});

test(`a chapter's first response fits the first round trip with ${BOOK} chapters, and grows under 500 B from the seed book`, async ({ playwright }, testInfo) => {
  const seed = await startSeedSite(testInfo.parallelIndex);
  const seedRequest = await playwright.request.newContext({ baseURL: seed.url });
  let seedSizes: Record<string, number>;
  let seedChapters: ListedChapter[];
  try {
    seedChapters = await operatorChapters(seedRequest);
    seedSizes = await firstResponses(seed.url, seedChapters);
  } finally {
    await seedRequest.dispose();
    await seed.stop();
  }
  const open = await operatorChapters(bookRequest!);
  expect(open.length).toBeGreaterThan(BOOK - 10);
  const grown = await firstResponses(book!.url, seedChapters);
  for (const [name, bytes] of Object.entries(grown)) {
    console.log(`First response, ${name}: ${seedSizes[name]} B br on the seed book, ${bytes} B with ${BOOK} chapters (${bytes - seedSizes[name]!} B more)`);
    expect.soft(bytes, name).toBeLessThanOrEqual(14 * KB);
    expect.soft(bytes - seedSizes[name]!, name).toBeLessThan(500);
  }
  // And the chapters the seed has not: in the middle of the book, and its last.
  for (const chapter of [open[Math.floor(open.length / 2)]!, open.at(-1)!]) {
    const bytes = await servedBytes(`${book!.url}/${chapter.slug}`);
    console.log(`First response, /${chapter.slug}: ${bytes} B br with ${BOOK} chapters`);
    expect.soft(bytes, chapter.slug).toBeLessThanOrEqual(14 * KB);
  }
});

test(`with ${BOOK} chapters a chapter's first view moves at most 60 KB and asks no function anything, on a phone and a desktop`, async ({ browser }) => {
  const open = await operatorChapters(bookRequest!);
  const middle = `/${open[Math.floor(open.length / 2)]!.slug}`;
  // What earlier readers' visits leave in the CDN's cache (as on Netlify).
  for (const path of [middle, "/api/chapters"]) expect((await bookRequest!.get(path)).status()).toBe(200);
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    const view = await firstView(browser, `${book!.url}${middle}`, { viewport });
    const label = `${middle} at ${viewport.width} px: ${JSON.stringify(view.bytes)}`;
    console.log(`First view with ${BOOK} chapters, ${label}; total ${view.total} B`);
    expect.soft(view.total, label).toBeLessThanOrEqual(60 * KB);
    expect(view.origin, label).toEqual([]);
  }
});

test(`with ${BOOK} chapters the rail and the drawer show the chapters near this one, then the whole level once the reader reaches for them, the current one where it was; nothing moves and no function is asked`, async ({ browser }) => {
  const open = await operatorChapters(bookRequest!);
  const at = Math.floor(open.length / 2);
  const middle = open[at]!;
  // What earlier readers' visits leave in the CDN's cache (as on Netlify).
  for (const path of [`/${middle.slug}`, `/${open.at(-1)!.slug}`, "/api/chapters"]) expect((await bookRequest!.get(path)).status()).toBe(200);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.addInitScript(() => {
    (window as unknown as { __cls: number }).__cls = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number }>) (window as unknown as { __cls: number }).__cls += entry.value;
    }).observe({ type: "layout-shift", buffered: true });
  });
  const reached: string[] = [];
  page.on("response", (response) => {
    if (/fwd=/.test(response.headers()["cache-status"] ?? "")) reached.push(new URL(response.url()).pathname);
  });
  const lists: string[] = [];
  page.on("request", (request) => new URL(request.url()).pathname === "/api/chapters" && lists.push(request.url()));
  try {
    await page.goto(`${book!.url}/${middle.slug}`);
    await page.waitForLoadState("networkidle");
    const rail = page.getByRole("navigation", { name: "Chapter rail" }).getByRole("link");
    const current = page.getByRole("navigation", { name: "Chapter rail" }).locator('[aria-current="page"]');
    // The first response's: 11 chapters, this one in the middle, numbered by their place in the level.
    await expect(rail).toHaveCount(11);
    await expect(current).toHaveAttribute("href", `/${middle.slug}`);
    await expect(current).toHaveText(String(at));
    await expect(rail.first()).toHaveText(String(at - 5));
    expect(lists, "an anonymous reader who only reads fetches no chapter list").toEqual([]);
    const before = (await current.boundingBox())!;

    // The reader reaches for the rail: the whole level, the current chapter where it was.
    await page.mouse.move(before.x + before.width / 2, before.y + before.height / 2);
    await expect(rail).toHaveCount(open.length);
    await expect(rail.first()).toHaveText("00");
    await expect(rail.last()).toHaveText(String(open.length - 1));
    await expect(current).toHaveAttribute("href", `/${middle.slug}`);
    expect((await current.boundingBox())!.y).toBeCloseTo(before.y, 0);
    // Its title beside it, as before.
    await expect(page.getByRole("tooltip")).toHaveText(middle.title, { timeout: 5_000 });

    // The drawer lists the whole level too, this one marked.
    await page.locator('[aria-controls="chapter-drawer"]:visible').first().click();
    const drawer = page.getByRole("dialog", { name: "Chapters" });
    await expect(drawer.getByTestId("drawer-list").getByRole("link")).toHaveCount(open.length);
    await expect(drawer.getByTestId("drawer-list").locator('[aria-current="page"]')).toContainText(middle.title);
    // A chapter chosen from it opens.
    await drawer.getByTestId("drawer-list").locator(`a[href="/${open.at(-1)!.slug}"]`).click();
    await expect(page).toHaveURL(new RegExp(`/${open.at(-1)!.slug}$`));
    await expect(page.getByRole("navigation", { name: "Chapter rail" }).locator('[aria-current="page"]')).toHaveAttribute("href", `/${open.at(-1)!.slug}`);
    // The next page shows the whole list from the tab's copy, without fetching it again.
    await expect(rail).toHaveCount(open.length);
    expect(lists).toHaveLength(1);
    expect(await page.evaluate(() => (window as unknown as { __cls: number }).__cls)).toBe(0);
    expect(reached).toEqual([]);
  } finally {
    await context.close();
  }
});

test(`without scripts, with ${BOOK} chapters, the rail links the chapters near this one`, async ({ browser }) => {
  const open = await operatorChapters(bookRequest!);
  const at = open.length - 1;
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    await page.goto(`${book!.url}/${open[at]!.slug}`);
    const rail = page.getByRole("navigation", { name: "Chapter rail" }).getByRole("link");
    await expect(rail).toHaveCount(11);
    await expect(rail.first()).toHaveAttribute("href", `/${open[at - 10]!.slug}`);
    await expect(rail.last()).toHaveAttribute("aria-current", "page");
    await expect(rail.last()).toHaveAccessibleName(`${at} ${open[at]!.title}`);
  } finally {
    await context.close();
  }
});
