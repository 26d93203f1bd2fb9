/**
 * Budgets (issues 3 and 13), asserted on the built site the end-to-end server serves: a seed
 * chapter page costs at most 30 KB of HTML, 20 KB of CSS and 90 KB of JavaScript, each gzip,
 * counting every asset the page may load (islands, their renderer and every chunk they import).
 * Of that JavaScript, what a page runs before the reader touches anything is at most 5 KB gzip on
 * a chapter page, /apply, /in-person and /about. Hydration shifts nothing (CLS 0). And no locked
 * chapter's content is anywhere in the built site.
 */
import { expect, test } from "./page-test.ts";
import fs from "node:fs";
import path from "node:path";
import { scriptsBeforeInteraction } from "../support/js-before-interaction.ts";
import { pageWeightOf } from "../support/page-weight.ts";
import { awake, operatorChapters } from "./reader-helpers.ts";
import { E2E_DATA_DIR, projectRoot } from "./server.ts";

const KB = 1024;
const siteDir = path.join(E2E_DATA_DIR, "site");
test("a seed chapter page stays within its byte budgets (gzip)", async ({ request }) => {
  const [first] = await operatorChapters(request);
  const html = await (await request.get(`/${first!.slug}`)).text();
  const figures = pageWeightOf(siteDir, html);
  console.log(
    `Chapter page (gzip bytes): HTML ${figures.html}, CSS ${figures.css} (${figures.cssFiles} files), JS ${figures.js} (${figures.jsFiles} files), preloaded fonts ${figures.fonts}; total ${figures.total}`,
  );
  expect(figures.jsFiles).toBeGreaterThan(0);
  // One preloaded font file (the upright latin subset of the variable face).
  expect(figures.fonts).toBeGreaterThan(0);
  expect(figures.fonts).toBeLessThanOrEqual(60 * KB);
  expect(figures.html).toBeLessThanOrEqual(30 * KB);
  expect(figures.css).toBeLessThanOrEqual(20 * KB);
  expect(figures.js).toBeLessThanOrEqual(90 * KB);
  // Its islands wait for the reader.
  expect(html).not.toMatch(/client="(load|idle|visible)"/);
});

test("the JavaScript a page runs before the reader touches anything is at most 5 KB gzip (chapter, /apply, /in-person, /about)", async ({
  browser,
  request,
}) => {
  const [first] = await operatorChapters(request);
  const figures: Record<string, number> = {};
  for (const url of [`/${first!.slug}`, "/apply", "/in-person", "/about", "/assessment"]) {
    // A fresh visitor each: a cold cache, no input at all, load and then idle.
    const context = await browser.newContext();
    const page = await context.newPage();
    const { total, inline, files } = await scriptsBeforeInteraction(page, url);
    figures[url] = total;
    console.log(`JS before interaction, ${url}: ${total} B gzip (inline ${inline}; ${files.map((f) => `${path.basename(f.url)} ${f.gzip}`).join(", ")})`);
    if (url !== "/assessment") {
      expect(total, url).toBeLessThanOrEqual(5 * KB);
      // Astro's island runtime and the directive run inline; the page script is the one file.
      expect(inline, url).toBeGreaterThan(1500);
      expect(files, url).toHaveLength(1);
    }
    await context.close();
  }
  // /assessment runs React for its scan (reported, not budgeted): nothing else of size.
  expect(figures["/assessment"]).toBeGreaterThan(figures["/about"]!);
});

test("islands hydrate without moving anything: CLS is 0 on load and while reading to the end", async ({ page, request }) => {
  const [first] = await operatorChapters(request);
  await page.addInitScript(() => {
    (window as unknown as { __cls: number }).__cls = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
        if (!entry.hadRecentInput) (window as unknown as { __cls: number }).__cls += entry.value;
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
  await page.goto(`/${first!.slug}`);
  await awake(page);
  await page.waitForTimeout(500);
  const onLoad = await page.evaluate(() => (window as unknown as { __cls: number }).__cls);
  for (let y = 0; y < 12; y++) {
    await page.mouse.wheel(0, 700);
    await page.waitForTimeout(60);
  }
  await page.waitForTimeout(500);
  const total = await page.evaluate(() => (window as unknown as { __cls: number }).__cls);
  console.log(`CLS: ${onLoad} on load, ${total} after reading to the end`);
  expect(onLoad).toBe(0);
  expect(total).toBe(0);
});

test("no locked chapter's content is anywhere in the built site", () => {
  const lockedBodies: string[] = [];
  for (const level of ["architect", "mastermind"]) {
    const dir = path.join(projectRoot, "content/book", level);
    for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith(".md")) continue;
      const body = fs.readFileSync(path.join(entry.parentPath, entry.name), "utf8").replace(/^---[\s\S]*?---\s*/, "");
      const sentence = body.split("\n").find((line) => line.trim().length > 60);
      if (sentence) lockedBodies.push(sentence.trim().slice(0, 60));
    }
  }
  expect(lockedBodies.length).toBeGreaterThan(5);
  const files = fs.readdirSync(siteDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && /\.(html|js|css|json|xml|txt)$/.test(e.name));
  for (const entry of files) {
    const text = fs.readFileSync(path.join(entry.parentPath, entry.name), "utf8");
    for (const sentence of lockedBodies) expect(text.includes(sentence), `${entry.name} holds locked content`).toBe(false);
  }
});
