/**
 * The first view of pages (issue 20: 2), as a phone's browser moves it over the wire: a fresh
 * browser each, everything fetched until the network has been quiet for 5 s, no input
 * (tests/support/first-view.ts), in KB by kind, with the requests a function answered.
 */
import { chromium } from "@playwright/test";
import { firstView, type Kind } from "../../tests/support/first-view.ts";
import { ensureChromium, FULL_BROWSER } from "../../tests/support/chromium.ts";

export type FirstViewFigures = Record<"totalKB" | `${Kind}KB`, number> & { originRequests: number };

const kb = (bytes: number) => Number((bytes / 1024).toFixed(1));

export async function firstViews(urls: Record<string, string>, viewport = { width: 390, height: 844 }): Promise<Record<string, FirstViewFigures>> {
  const browser = await chromium.launch({ executablePath: ensureChromium(FULL_BROWSER), args: ["--no-sandbox", "--disable-gpu"] });
  const figures: Record<string, FirstViewFigures> = {};
  try {
    for (const [name, url] of Object.entries(urls)) {
      const view = await firstView(browser, url, { viewport });
      figures[name] = {
        totalKB: kb(view.total),
        ...(Object.fromEntries(Object.entries(view.bytes).map(([kind, bytes]) => [`${kind}KB`, kb(bytes)])) as Record<`${Kind}KB`, number>),
        originRequests: view.origin.length,
      };
    }
  } finally {
    await browser.close();
  }
  return figures;
}
