/**
 * What a big book costs in the browser (issue 45: 2), measured in Chromium (Playwright):
 *   - the chapter drawer: from the tap on the menu (data-testid="menu-toggle") to the frame after
 *     the one that shows the drawer (dialog#chapter-drawer) open with its chapter list laid out
 *     (a link of data-testid="drawer-list" with a size): that frame's paint is done then; and the
 *     same for the level's whole list (a page carries the chapters near its own: decision 0029). On a
 *     phone as Lighthouse's mobile profile models one (4x CPU, 150 ms round trip, 1.6 Mbps;
 *     first-tap.ts's PHONE), cold cache, the tap once the page has loaded and its network is quiet;
 *   - the open level's first search: the bytes every response moves (body as sent and headers)
 *     from the tap on the search box (data-testid="search-box") through typing a word until the
 *     results show and the network has been quiet for 1 s, by kind, and by file (its address with
 *     hashes and numbers left out: the records shown together, the index's chunks together);
 *   - the admin panel's Chapters tab: signed in (the API's cookie), ms from asking for /admin to the
 *     level's chapter list (`ol[aria-label="Operator chapters"]`) holding its cards; and from a
 *     click on the Chapters tab (coming from another tab) to the same. A desktop, no throttling.
 * Figures only, never asserted.
 */
import type { Browser, BrowserContext, Page, Request } from "@playwright/test";
import { PHONE, presentedAfterTap } from "./first-tap.ts";
import { medianOf } from "./timing.ts";

const PHONE_CONTEXT = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 3 };

/** Resolves once no request of `page` has been pending or started for `quietMs`. */
async function networkQuiet(page: Page, quietMs: number, timeoutMs = 60_000): Promise<void> {
  const pending = new Set<Request>();
  let last = Date.now();
  const start = (request: Request) => (pending.add(request), (last = Date.now()));
  const end = (request: Request) => (pending.delete(request), (last = Date.now()));
  page.on("request", start);
  page.on("requestfinished", end);
  page.on("requestfailed", end);
  const deadline = Date.now() + timeoutMs;
  try {
    while ((pending.size > 0 || Date.now() - last < quietMs) && Date.now() < deadline) await page.waitForTimeout(50);
  } finally {
    page.off("request", start);
    page.off("requestfinished", end);
    page.off("requestfailed", end);
  }
}

/**
 * The measuring hooks, in the page before its own scripts (beside `presentedAfterTap`): the touch's
 * time, the painted frame with the drawer's list, and the painted frame with the whole list (`whole` links: a chapter page
 * carries the chapters near its own, the rest comes when the reader reaches for it, decision 0029).
 */
function instrumentDrawer(whole: number): void {
  const w = window as unknown as { __tap?: number; __listed?: number; __painted?: number; __whole?: number };
  const listed = () => {
    const drawer = document.querySelector<HTMLDialogElement>("dialog#chapter-drawer");
    if (!drawer?.open) return false;
    const link = drawer.querySelector('[data-testid="drawer-list"] a');
    const box = link?.getBoundingClientRect();
    return !!box && box.height > 0 && box.width > 0;
  };
  // A task queued in a frame's animation callback runs once that frame is rendered.
  const afterPaint = (done: (ms: number) => void) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => done(performance.now());
    channel.port2.postMessage(0);
  };
  const frame = () => {
    if (w.__listed === undefined && listed()) {
      afterPaint((ms) => (w.__painted = ms));
      w.__listed = performance.now();
    }
    if (w.__listed !== undefined && document.querySelectorAll('dialog#chapter-drawer[open] [data-testid="drawer-list"] a').length >= whole) {
      afterPaint((ms) => (w.__whole = ms));
      return;
    }
    requestAnimationFrame(frame);
  };
  addEventListener(
    "touchstart",
    (event) => {
      if (w.__tap !== undefined) return;
      w.__tap = event.timeStamp;
      requestAnimationFrame(frame);
    },
    { capture: true, passive: true },
  );
}

export interface DrawerTap {
  /** ms from the touch to the frame that shows the drawer open with its list (its animation frame callback). */
  listFrameMs: number;
  /**
   * ms from the touch until that frame was rendered (a task posted from its animation frame
   * callback: it also waits for the timers the page queued for after that frame).
   */
  listPaintedMs: number;
  /**
   * ms from the touch until the frame after the tap's events was presented, as the browser's Event
   * Timing reports it (what INP counts; 8 ms steps), or null when none lasted 16 ms or more.
   */
  presentedMs: number | null;
  /** ms from the touch until the frame with the level's whole list was rendered; null if it never came (30 s). */
  wholeListMs: number | null;
}

async function phonePage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, ...PHONE });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  return page;
}

/**
 * One tap on the menu of `url`, in a fresh phone context (cold cache), once the page has loaded
 * and its network is quiet; `whole`: the chapters of the page's level.
 */
export async function drawerTapOnce(browser: Browser, url: string, whole: number): Promise<DrawerTap> {
  const context = await browser.newContext(PHONE_CONTEXT);
  try {
    const page = await phonePage(context);
    await page.addInitScript(presentedAfterTap);
    await page.addInitScript(instrumentDrawer, whole);
    await page.goto(url, { waitUntil: "load", timeout: 120_000 });
    await networkQuiet(page, 1000);
    await page.getByTestId("menu-toggle").tap();
    await page.waitForFunction(() => (window as unknown as { __painted?: number }).__painted !== undefined, undefined, { timeout: 60_000 });
    await page.waitForFunction(() => (window as unknown as { __whole?: number }).__whole !== undefined, undefined, { timeout: 30_000 }).catch(() => {});
    const { tap, listed, painted, all, presented } = await page.evaluate(() => {
      const w = window as unknown as { __tap: number; __listed: number; __painted: number; __whole?: number; __presented?: number };
      return { tap: w.__tap, listed: w.__listed, painted: w.__painted, all: w.__whole, presented: w.__presented };
    });
    return {
      listFrameMs: Math.round(listed - tap),
      listPaintedMs: Math.round(painted - tap),
      presentedMs: presented === undefined ? null : Math.round(presented - tap),
      wholeListMs: all === undefined ? null : Math.round(all - tap),
    };
  } finally {
    await context.close();
  }
}

/** Medians of `runs` drawer taps on `url` (`whole`: the chapters of its level), with each run's figures. */
export async function drawerTap(browser: Browser, url: string, whole: number, runs = 3): Promise<DrawerTap & { runs: DrawerTap[] }> {
  const taps: DrawerTap[] = [];
  for (let i = 0; i < runs; i++) taps.push(await drawerTapOnce(browser, url, whole));
  const wholes = taps.map((t) => t.wholeListMs).filter((ms): ms is number => ms !== null);
  // (A tap whose events all took under 16 ms counts as 16 here.)
  const presented = taps.map((t) => t.presentedMs ?? 16);
  return {
    listFrameMs: medianOf(taps.map((t) => t.listFrameMs)),
    listPaintedMs: medianOf(taps.map((t) => t.listPaintedMs)),
    presentedMs: medianOf(presented),
    wholeListMs: wholes.length === taps.length ? medianOf(wholes) : null,
    runs: taps,
  };
}

export interface SearchBytes {
  totalKB: number;
  /** KB by kind: js, data (fetch/xhr, the index's files), other. */
  byKind: Record<string, number>;
  /** KB and answers by file, hashes and numbers in its address left out ("/search-index/{id}/records/{n}.json"). */
  byFile: Record<string, { kb: number; answers: number }>;
  requests: number;
  /** Results shown for the word. */
  results: number;
}

const kb = (bytes: number) => Number((bytes / 1024).toFixed(1));

/** The open level's first search for `word` on `url` (a chapter page), in a fresh phone context: the bytes it moves. */
export async function searchBytes(browser: Browser, url: string, word: string): Promise<SearchBytes> {
  const context = await browser.newContext(PHONE_CONTEXT);
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: "load", timeout: 120_000 });
    await networkQuiet(page, 1000);
    await page.getByTestId("menu-toggle").tap();
    await page.locator("dialog#chapter-drawer[open]").waitFor();
    // What the tap itself fetches (the islands' files) is not the search's.
    await networkQuiet(page, 1000);
    let counting = true;
    const counted: Array<Promise<{ kind: string; file: string; bytes: number } | null>> = [];
    page.on("requestfinished", (request) => {
      if (!counting) return;
      counted.push(
        (async () => {
          const sizes = await request.sizes();
          const type = request.resourceType();
          const { pathname } = new URL(request.url());
          const kind = type === "script" || /\.m?js$/.test(pathname) ? "js" : type === "fetch" || type === "xhr" ? "data" : type;
          const file = pathname
            .replace(/\/[0-9a-f]{10,}\//, "/{id}/")
            .replace(/\/\d+\.json$/, "/{n}.json")
            .replace(/\.[\w-]{8,}\.(js|css)$/, ".$1");
          return { kind, file, bytes: sizes.responseBodySize + sizes.responseHeadersSize };
        })().catch(() => null),
      );
    });
    const box = page.getByTestId("search-box");
    await box.tap();
    await box.pressSequentially(word, { delay: 80 });
    const results = page.getByRole("region", { name: "Search results" }).locator("a");
    await results.first().waitFor({ timeout: 60_000 }).catch(() => {});
    await networkQuiet(page, 1000);
    counting = false;
    const shown = await results.count();
    const responses = (await Promise.all(counted)).filter((r): r is { kind: string; file: string; bytes: number } => r !== null);
    const byKind: Record<string, number> = {};
    const byFile: Record<string, { kb: number; answers: number }> = {};
    for (const { kind, file, bytes } of responses) {
      byKind[kind] = (byKind[kind] ?? 0) + bytes;
      byFile[file] = { kb: (byFile[file]?.kb ?? 0) + bytes, answers: (byFile[file]?.answers ?? 0) + 1 };
    }
    return {
      totalKB: kb(responses.reduce((sum, r) => sum + r.bytes, 0)),
      byKind: Object.fromEntries(Object.entries(byKind).map(([kind, bytes]) => [kind, kb(bytes)])),
      byFile: Object.fromEntries(Object.entries(byFile).map(([file, { kb: bytes, answers }]) => [file, { kb: kb(bytes), answers }])),
      requests: responses.length,
      results: shown,
    };
  } finally {
    await context.close();
  }
}

export interface AdminTab {
  /** ms from asking for /admin (signed in) to the Operator chapter list holding its cards. */
  navigationMs: number;
  /** ms from a click on the Chapters tab (from another tab) to the same. */
  tabClickMs: number;
  /** ms from that click to the list holding a card for every chapter of the level (a long level's cards come in slices). */
  allCardsMs: number;
  /** Cards in the list once all are there. */
  cards: number;
}

const LIST = 'ol[aria-label="Operator chapters"] > li';

/**
 * The Chapters tab of the admin panel at `base`, signed in as `admin`, its Operator level holding
 * `chapters`: medians of `runs`, each in a fresh desktop context.
 */
export async function adminChaptersTab(browser: Browser, base: string, admin: { email: string; password: string }, chapters: number, runs = 3): Promise<AdminTab> {
  const each: AdminTab[] = [];
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const signedIn = await context.request.post(`${base}/api/admin/login`, { data: admin });
      if (signedIn.status() !== 200) throw new Error(`admin login: ${signedIn.status()}`);
      const page = await context.newPage();
      await page.goto(`${base}/admin`, { waitUntil: "commit" });
      // (performance.now() counts from the navigation's start.)
      const navigationMs = await (
        await page.waitForFunction((selector) => document.querySelector(selector) && performance.now(), LIST, { timeout: 120_000, polling: "raf" })
      ).jsonValue();
      await page.waitForFunction(([selector, all]) => document.querySelectorAll(selector).length >= all, [LIST, chapters] as const, { timeout: 120_000 });
      const cards = await page.locator(LIST).count();
      await networkQuiet(page, 500);
      await page.getByRole("tab", { name: /^Assessment Submissions/ }).click();
      await page.locator(LIST).waitFor({ state: "detached" });
      const [tabClickMs, allCardsMs] = await page.evaluate(
        ([selector, all]) =>
          new Promise<[number, number]>((resolve) => {
            const tab = [...document.querySelectorAll<HTMLElement>('[role="tab"]')].find((t) => /^Chapters/.test(t.textContent ?? ""))!;
            const started = performance.now();
            let first: number | undefined;
            tab.click();
            const check = () => {
              const shown = document.querySelectorAll(selector).length;
              if (shown > 0) first ??= performance.now() - started;
              if (shown >= all) resolve([first!, performance.now() - started]);
              else requestAnimationFrame(check);
            };
            requestAnimationFrame(check);
          }),
        [LIST, chapters] as const,
      );
      each.push({ navigationMs: Math.round(Number(navigationMs)), tabClickMs: Math.round(tabClickMs), allCardsMs: Math.round(allCardsMs), cards });
    } finally {
      await context.close();
    }
  }
  return {
    navigationMs: medianOf(each.map((e) => e.navigationMs)),
    tabClickMs: medianOf(each.map((e) => e.tabClickMs)),
    allCardsMs: medianOf(each.map((e) => e.allCardsMs)),
    cards: each[0]!.cards,
  };
}
