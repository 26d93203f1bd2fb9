/**
 * The JavaScript a page runs before the reader touches anything (issue 13), measured in a real
 * browser: every script response while the page loads and then sits idle with no input, plus
 * every inline script (Astro's island runtime and directives included), each gzip-sized. Module
 * files fetched without running them (the islands' <link rel="prefetch">) are counted apart, as
 * `prefetched`. Used by the budget test and by `npm run bench`.
 */
import { gzipSync } from "node:zlib";
import type { Page } from "@playwright/test";
import { openUntouched } from "./untouched-page.ts";

export interface ScriptsBeforeInteraction {
  /** Gzip bytes of all scripts run: files plus inline. */
  total: number;
  /** Gzip bytes of inline scripts. */
  inline: number;
  /** Script files, each with its gzip bytes. */
  files: Array<{ url: string; gzip: number }>;
  /** Gzip bytes of module files fetched but not run (idle prefetch). */
  prefetched: number;
}

const RUNNABLE = new Set(["", "module", "text/javascript", "application/javascript"]);

/** Opens `url` in `page` (a fresh one) and lets it do all it does by itself (untouched-page.ts), with no input at all. */
export async function scriptsBeforeInteraction(page: Page, url: string): Promise<ScriptsBeforeInteraction> {
  const files: Array<{ url: string; gzip: number }> = [];
  let prefetched = 0;
  const pending: Array<Promise<void>> = [];
  const onResponse = (response: import("@playwright/test").Response) => {
    const type = response.request().resourceType();
    const isModuleFile = /\.m?js$/.test(new URL(response.url()).pathname);
    if (type !== "script" && !isModuleFile) return;
    pending.push(
      response
        .body()
        .then((body) => {
          const gzip = gzipSync(body).length;
          if (type === "script") files.push({ url: new URL(response.url()).pathname, gzip });
          else prefetched += gzip;
        })
        .catch(() => {}),
    );
  };
  page.on("response", onResponse);
  try {
    await openUntouched(page, url);
    await Promise.all(pending);
  } finally {
    page.off("response", onResponse);
  }
  const inlineTexts = await page.evaluate((runnable) => {
    return [...document.querySelectorAll("script:not([src])")]
      .filter((s) => runnable.includes((s.getAttribute("type") ?? "").toLowerCase()))
      .map((s) => s.textContent ?? "");
  }, [...RUNNABLE]);
  const inline = inlineTexts.reduce((sum, text) => sum + gzipSync(text).length, 0);
  const total = inline + files.reduce((sum, f) => sum + f.gzip, 0);
  return { total, inline, files, prefetched };
}
