/**
 * The first tap on a phone (issue 13): from the finger touching the menu to the chapter drawer
 * open, on a phone as Lighthouse's mobile profile models one (4x CPU slowdown, 150 ms round trip,
 * 1.6 Mbps down, 750 kbps up), cold cache, 390x844 touch screen. Measured in the page: the touch's
 * own timestamp, and the frame after the drawer's `open` attribute appears. Two moments: as soon
 * as the page has loaded (and its page script run), and once it has sat idle for a while (the islands' files are fetched on
 * the first touch either way, issue 20: 2; the drawer opens without them). Figures only, never
 * asserted.
 */
import { chromium, type Browser } from "@playwright/test";
import { ensureChromium, FULL_BROWSER } from "../../tests/support/chromium.ts";

export interface FirstTap {
  /** ms from touch to the frame with the drawer open (its first animation frame callback). */
  drawerOpenMs: number;
  /**
   * ms from touch to the paint of that frame, as the browser's Event Timing reports it for the
   * tap's events (the time INP counts; 8 ms steps), or null when none lasted 16 ms or more.
   */
  paintedMs: number | null;
  /** ms from touch until the Navigator island had hydrated (it takes the drawer over then). */
  navigatorUpMs: number | null;
}

export const PHONE = { latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 };

/**
 * A measuring hook, in the page before its own scripts: the browser's own word (Event Timing, as
 * INP counts; 8 ms steps) on when the frame after the tap's events was presented (`__presented`),
 * for a tap whose touch the page's other hook has stamped (`__tap`). A script of its own, as the
 * page runs it (Playwright sends its text).
 */
export function presentedAfterTap(): void {
  const w = window as unknown as { __tap?: number; __presented?: number };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as PerformanceEventTiming[])
      if (entry.interactionId && w.__tap !== undefined && entry.startTime >= w.__tap - 1) w.__presented = Math.max(w.__presented ?? 0, entry.startTime + entry.duration);
  }).observe({ type: "event", buffered: true, durationThreshold: 16 } as PerformanceObserverInit);
}

/** The measuring hooks, run in the page before its own scripts. */
function instrument(): void {
  const w = window as unknown as { __tap?: number; __open?: number; __up?: number };
  addEventListener("touchstart", (event) => (w.__tap ??= event.timeStamp), { capture: true, passive: true });
  new MutationObserver(() => {
    const drawer = document.querySelector("dialog#chapter-drawer");
    if (w.__tap !== undefined && w.__open === undefined && drawer?.hasAttribute("open")) {
      requestAnimationFrame(() => (w.__open ??= performance.now()));
    }
    const island = drawer?.closest("astro-island");
    if (w.__tap !== undefined && w.__up === undefined && island && !island.hasAttribute("ssr")) w.__up = performance.now();
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["open", "ssr"] });
}

/** One first tap on `url` in a fresh context of `browser`, `idleMs` after the page's load. */
export async function tapOnce(browser: Browser, url: string, idleMs: number): Promise<FirstTap> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 3 });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: false });
    await cdp.send("Network.emulateNetworkConditions", { offline: false, ...PHONE });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    await page.addInitScript(presentedAfterTap);
    await page.addInitScript(instrument);
    await page.goto(url, { waitUntil: "load" });
    // A page that imports its page script after the first paint (decision 0032) may have loaded
    // before it came: "at load" is then once it has run (it makes the drawer ready at once).
    await page.waitForFunction(() => !document.documentElement.dataset.script || document.documentElement.hasAttribute("data-drawer-ready"), undefined, { timeout: 30_000 });
    if (idleMs) await page.waitForTimeout(idleMs);
    // The page's visible menu control: the header's button today (issue 34: 8), the chapter bar's
    // or the header's "Chapters" on older commits (bench/tap.ts compares with one).
    await page.locator('[aria-controls="chapter-drawer"]:visible').first().tap();
    await page.waitForFunction(() => (window as unknown as { __open?: number }).__open !== undefined, undefined, { timeout: 30_000 });
    await page.waitForFunction(() => (window as unknown as { __up?: number }).__up !== undefined, undefined, { timeout: 30_000 }).catch(() => {});
    const { tap, open, up, painted } = await page.evaluate(() => {
      const w = window as unknown as { __tap: number; __open: number; __up?: number; __presented?: number };
      return { tap: w.__tap, open: w.__open, up: w.__up, painted: w.__presented };
    });
    return {
      drawerOpenMs: Math.round(open - tap),
      paintedMs: painted === undefined ? null : Math.round(painted - tap),
      navigatorUpMs: up === undefined ? null : Math.round(up - tap),
    };
  } finally {
    await context.close();
  }
}

/** Medians of `runs` first taps on `url`, at load and after `idleMs` idle. */
export async function firstTap(url: string, { runs = 3, idleMs = 5000 } = {}): Promise<Record<string, FirstTap>> {
  const browser = await chromium.launch({
    executablePath: ensureChromium(FULL_BROWSER),
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const result: Record<string, FirstTap> = {};
  try {
    for (const [label, idle] of [
      ["tap at load", 0],
      [`tap after ${idleMs / 1000} s idle`, idleMs],
    ] as const) {
      const taps: FirstTap[] = [];
      for (let i = 0; i < runs; i++) taps.push(await tapOnce(browser, url, idle));
      const known = (values: Array<number | null>) => values.filter((ms): ms is number => ms !== null);
      const ups = known(taps.map((t) => t.navigatorUpMs));
      const painted = known(taps.map((t) => t.paintedMs));
      result[label] = {
        drawerOpenMs: median(taps.map((t) => t.drawerOpenMs)),
        paintedMs: painted.length ? median(painted) : null,
        navigatorUpMs: ups.length ? median(ups) : null,
      };
    }
  } finally {
    await browser.close();
  }
  return result;
}
