/**
 * JavaScript before interaction per page (issue 13): what each page runs with no input, gzip, in
 * a fresh browser (cold cache), and what it prefetches without running (tests/support).
 */
import { chromium } from "@playwright/test";
import { scriptsBeforeInteraction } from "../../tests/support/js-before-interaction.ts";

export interface PageJs {
  /** Gzip bytes run before interaction: files plus inline. */
  runKB: number;
  inlineKB: number;
  files: number;
  /** Gzip bytes fetched at idle without running (the islands' files). */
  prefetchedKB: number;
}

const kb = (bytes: number) => Number((bytes / 1024).toFixed(1));

export async function pageJs(urls: Record<string, string>): Promise<Record<string, PageJs>> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
  const figures: Record<string, PageJs> = {};
  try {
    for (const [name, url] of Object.entries(urls)) {
      const context = await browser.newContext();
      const figure = await scriptsBeforeInteraction(await context.newPage(), url);
      figures[name] = { runKB: kb(figure.total), inlineKB: kb(figure.inline), files: figure.files.length, prefetchedKB: kb(figure.prefetched) };
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return figures;
}
