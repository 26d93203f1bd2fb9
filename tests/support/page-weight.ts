/**
 * What a built page costs a visitor, gzip: its HTML, its stylesheets, and every JavaScript file it
 * loads (scripts, modulepreloads, island components and renderers, and everything they import);
 * and the fonts it preloads (woff2, compressed already). Used by the budget test and by `npm run bench`.
 */
import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

export interface PageWeight {
  html: number;
  css: number;
  js: number;
  cssFiles: number;
  jsFiles: number;
  /** Preloaded font files, bytes as sent. */
  fonts: number;
  /** Everything above together. */
  total: number;
}

export function pageScripts(siteDir: string, html: string): string[] {
  const queue = [
    ...html.matchAll(/<script[^>]+src="(\/[^"]+\.js)"/g),
    ...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="(\/[^"]+)"/g),
    ...html.matchAll(/(?:component|renderer)-url="(\/[^"]+)"/g),
  ].map((m) => m[1]!);
  return importGraph(siteDir, queue);
}

/**
 * The files `files` load only when their code asks (`import()`: a lazy React component, a module
 * fetched on demand), with everything those import, but none of `files` themselves. Those are
 * not in a page's weight (pageScripts follows static imports only); a budget names them apart.
 */
export function lazyScripts(siteDir: string, files: readonly string[]): string[] {
  const known = new Set(files);
  const found: string[] = [];
  // (Lazy files may load others lazily in turn: followed until nothing new comes.)
  for (let from = [...files]; from.length > 0; ) {
    const lazy = from.flatMap((file) =>
      [...fs.readFileSync(path.join(siteDir, file), "utf8").matchAll(/import\(\s*["'`](\.{1,2}\/[^"'`]+\.js)["'`]\s*\)/g)].map((m) =>
        path.posix.join(path.posix.dirname(file), m[1]!),
      ),
    );
    from = importGraph(siteDir, lazy).filter((file) => !known.has(file));
    for (const file of from) known.add(file);
    found.push(...from);
  }
  return found;
}

/** Gzip bytes of `files` together. */
export const gzipBytes = (siteDir: string, files: readonly string[]) => files.reduce((sum, file) => sum + gzipSync(fs.readFileSync(path.join(siteDir, file))).length, 0);

/** `roots` and every file they import statically, transitively. */
function importGraph(siteDir: string, roots: string[]): string[] {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = fs.readFileSync(path.join(siteDir, file), "utf8");
    for (const m of source.matchAll(/(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+\.js)["']/g)) {
      queue.push(path.posix.join(path.posix.dirname(file), m[1]!));
    }
  }
  return [...seen];
}

export function pageWeight(siteDir: string, htmlFile: string): PageWeight {
  return pageWeightOf(siteDir, fs.readFileSync(path.join(siteDir, htmlFile), "utf8"));
}

/** The same for a page as served (a chapter page is rendered by a function into the built shell). */
export function pageWeightOf(siteDir: string, html: string): PageWeight {
  const gz = (file: string) => gzipSync(fs.readFileSync(path.join(siteDir, file))).length;
  // (Once each: a page names its sheet twice, for the page script and for a browser without scripts.)
  const css = [...new Set([...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="(\/[^"]+)"/g)].map((m) => m[1]!))];
  const js = pageScripts(siteDir, html);
  const fonts = [...html.matchAll(/<link[^>]+rel="preload"[^>]+href="(\/[^"]+\.woff2)"/g)].map((m) => m[1]!);
  const weight = {
    html: gzipSync(html).length,
    css: css.reduce((sum, f) => sum + gz(f), 0),
    js: js.reduce((sum, f) => sum + gz(f), 0),
    cssFiles: css.length,
    jsFiles: js.length,
    fonts: fonts.reduce((sum, f) => sum + fs.statSync(path.join(siteDir, f)).size, 0),
  };
  return { ...weight, total: weight.html + weight.css + weight.js + weight.fonts };
}
