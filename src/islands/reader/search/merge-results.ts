/**
 * Merging the two sources of the search box: the static index (Operator text, searched in the
 * browser) and the server (Architect and Mastermind text, for a session that may read it).
 */
import type { SearchResult, SnippetPart } from "../../../lib/search-query.ts";

export const MAX_RESULTS = 20;

/** A result of the static index, with the text stamp its chapter had when the index was built. */
export interface StaticHit {
  result: SearchResult;
  stamp: string | undefined;
}

/**
 * The static index is as old as the last site build: a chapter moved out of the open level,
 * deleted or edited since then may still have its old words in it. Only results whose chapter
 * the live list (`liveOperator`: the slug of each Operator chapter and its text stamp) still
 * shows as Operator, with the very text the index was built from, are kept.
 */
export function keepLiveOperator(hits: readonly StaticHit[], liveOperator: ReadonlyMap<string, string | undefined>): SearchResult[] {
  return hits
    .filter(({ result, stamp }) => {
      const slug = chapterSlugOf(result.url);
      return liveOperator.has(slug) && liveOperator.get(slug) === stamp;
    })
    .map(({ result }) => result);
}

export function chapterSlugOf(url: string): string {
  return url.replace(/^\//, "").replace(/[#?].*$/, "");
}

/** Both lists in turns (each is in its own order of relevance), without the same address twice. */
export function mergeResults(open: readonly SearchResult[], locked: readonly SearchResult[]): SearchResult[] {
  const merged: SearchResult[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < Math.max(open.length, locked.length) && merged.length < MAX_RESULTS; i++) {
    for (const result of [open[i], locked[i]]) {
      if (result && !seen.has(result.url) && merged.length < MAX_RESULTS) {
        seen.add(result.url);
        merged.push(result);
      }
    }
  }
  return merged;
}

/**
 * Pagefind's excerpt (text with `<mark>` around matches) as snippet parts. Read as HTML by the
 * browser's parser and taken apart into text only, so nothing in it can become markup on the page.
 */
export function excerptParts(excerpt: string, parse: (html: string) => Node): SnippetPart[] {
  const parts: SnippetPart[] = [];
  for (const node of Array.from(parse(excerpt).childNodes)) {
    const text = node.textContent ?? "";
    if (!text) continue;
    if (node.nodeName === "MARK") parts.push({ text, mark: true });
    else parts.push({ text });
  }
  return parts;
}
