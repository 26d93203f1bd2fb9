/**
 * Lighthouse, mobile profile (its default: 4x CPU slowdown, 150 ms round trip, 1.6 Mbps), in
 * Debian's Chromium: score, LCP, TBT, CLS, time to interactive, the bytes the page transfers and
 * the main thread's time in scripts. Each figure is the median of `runs` runs.
 */
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { ensureChromium, FULL_BROWSER } from "../../tests/support/chromium.ts";

export interface LighthouseFigures {
  score: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  ttiMs: number;
  transferKB: number;
  scriptMs: number;
}

/** Debian's Chromium, headless, as every Lighthouse run of the bench drives it. */
export function launchChromium(): Promise<chromeLauncher.LaunchedChrome> {
  return chromeLauncher.launch({
    chromePath: ensureChromium(FULL_BROWSER),
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
}

export async function lighthouseRun(urls: string[], runs = 3): Promise<Map<string, LighthouseFigures>> {
  const chrome = await launchChromium();
  const figures = new Map<string, LighthouseFigures>();
  try {
    for (const url of urls) {
      const each: LighthouseFigures[] = [];
      for (let i = 0; i < runs; i++) each.push(await once(chrome.port, url));
      const median = (key: keyof LighthouseFigures) => each.map((f) => f[key]).sort((a, b) => a - b)[Math.floor(runs / 2)]!;
      figures.set(url, Object.fromEntries(Object.keys(each[0]!).map((key) => [key, median(key as keyof LighthouseFigures)])) as unknown as LighthouseFigures);
    }
  } finally {
    chrome.kill();
  }
  return figures;
}

async function once(port: number, url: string): Promise<LighthouseFigures> {
  const result = await lighthouse(url, { port, output: "json", logLevel: "error", onlyCategories: ["performance"] });
  const lhr = result!.lhr;
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    lcpMs: Math.round(lhr.audits["largest-contentful-paint"]?.numericValue ?? 0),
    tbtMs: Math.round(lhr.audits["total-blocking-time"]?.numericValue ?? 0),
    cls: Number((lhr.audits["cumulative-layout-shift"]?.numericValue ?? 0).toFixed(3)),
    ttiMs: Math.round(lhr.audits["interactive"]?.numericValue ?? 0),
    transferKB: Math.round((lhr.audits["total-byte-weight"]?.numericValue ?? 0) / 1024),
    scriptMs: Math.round(lhr.audits["bootup-time"]?.numericValue ?? 0),
  };
}
