/**
 * `npm run bench:start`: opening `/` on a phone as Lighthouse's mobile profile models one (4x CPU,
 * 150 ms round trip, 1.6 Mbps down; bench/lib/first-tap.ts's PHONE), cold cache, a reader not
 * signed in: from the moment `/` is asked for to the first chapter's first contentful paint, and
 * whether `/` itself painted anything on the way (its "Take a Breath"), against the first chapter
 * opened directly. This checkout against another commit (BASE, default b0b725e: / before issue
 * 44: 2), side by side (bench/lib/side-by-side.ts), ROUNDS (default 5) alternating. Figures,
 * never pass/fail.
 */
import { chromium, type Browser } from "@playwright/test";
import { PHONE } from "./lib/first-tap.ts";
import { firstChapter, sideBySide } from "./lib/side-by-side.ts";
import { medianOf } from "./lib/timing.ts";
import { ensureChromium, FULL_BROWSER } from "../tests/support/chromium.ts";

const base = process.env.BASE || "b0b725e";
const rounds = Number(process.env.ROUNDS || 5);

/** ms from asking for `url` to the first contentful paint of `chapter` it leads to, and whether a page before it painted. */
async function open(browser: Browser, url: string, chapter: string): Promise<{ ms: number; passedPainted: boolean }> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 3 });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", { offline: false, ...PHONE });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    // Every document's paints, kept across its navigation: epoch ms, and on which address.
    await page.addInitScript(() => {
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          if (entry.name === "first-contentful-paint") sessionStorage.setItem(`fcp ${location.pathname}`, String(performance.timeOrigin + entry.startTime));
        }
      }).observe({ type: "paint", buffered: true });
    });
    const asked = Date.now();
    await page.goto(url, { waitUntil: "commit" });
    // (A page that sends the reader on by script has loaded before it does.)
    await page.waitForURL(chapter, { timeout: 30_000 });
    const end = new URL(chapter).pathname;
    await page.waitForFunction((path) => sessionStorage.getItem(`fcp ${path}`) !== null, end, { timeout: 30_000 });
    const paints = await page.evaluate(() => Object.fromEntries(Object.keys(sessionStorage).filter((key) => key.startsWith("fcp ")).map((key) => [key.slice(4), Number(sessionStorage.getItem(key))])));
    return { ms: Math.round(paints[end]! - asked), passedPainted: Object.keys(paints).some((path) => path !== end) };
  } finally {
    await context.close();
  }
}

await sideBySide(base, async ({ ours, base: theirs }) => {
  const servers = { ours, base: theirs };
  const chapters = { ours: await firstChapter(ours), base: await firstChapter(theirs) };
  const browser = await chromium.launch({ executablePath: ensureChromium(FULL_BROWSER), args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
  const figures = { ours: { root: [] as number[], direct: [] as number[], painted: 0 }, base: { root: [] as number[], direct: [] as number[], painted: 0 } };
  try {
    for (let round = 1; round <= rounds; round++) {
      const order = round % 2 ? (["ours", "base"] as const) : (["base", "ours"] as const);
      const line: string[] = [];
      for (const which of order) {
        const root = await open(browser, `${servers[which].url}/`, chapters[which]);
        const direct = await open(browser, chapters[which], chapters[which]);
        figures[which].root.push(root.ms);
        figures[which].direct.push(direct.ms);
        if (root.passedPainted) figures[which].painted++;
        line.push(`${which === "ours" ? "this checkout" : base}: / ${root.ms} ms${root.passedPainted ? " (/ painted first)" : ""}, the chapter directly ${direct.ms} ms`);
      }
      console.log(`round ${round}: asked to the first chapter's first contentful paint: ${line.join("; ")}`);
    }
  } finally {
    await browser.close();
  }
  for (const which of ["ours", "base"] as const) {
    const f = figures[which];
    console.log(
      `${which === "ours" ? "this checkout" : base}, medians of ${rounds}: / to the first chapter's paint ${medianOf(f.root)} ms, the chapter directly ${medianOf(f.direct)} ms (/ costs ${medianOf(f.root) - medianOf(f.direct)} ms); / painted before the chapter in ${f.painted} of ${rounds}`,
    );
  }
});
