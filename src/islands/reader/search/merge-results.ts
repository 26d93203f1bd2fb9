/**
 * Merging the two sources of the search box: the static index (Operator text, searched in the
 * browser) and the server (Architect and Mastermind text, for a session that may read it).
 */
import type { SearchResult } from "../../../lib/search-query.ts";
import { foldAccents } from "../../../lib/accent-folding.ts";
import { stem } from "../../../lib/static-search-index.ts";

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

/**
 * How well a result answers the reader's words (issue 22: 9), from what both sources give: its
 * title and its snippet, accents forgiven as both sources forgive them (issue 44: 5). Compared in
 * this order: how many of the words it holds (every word before some), how many as they were typed
 * (accents and all: "jeża" before "jeza"), a title that is exactly the words, how many it holds
 * whole in its title, how many in its title at all (titles before text), then how many whole
 * anywhere (whole words before prefixes). Null when its title and snippet hold none of them: a
 * match the result cannot show.
 */
export function relevance(words: readonly string[], result: SearchResult): number[] | null {
  const typedTitle = textWords(result.title);
  const typedBody = textWords(result.snippet.map((part) => part.text).join(" "));
  const title = typedTitle.map(foldAccents);
  const body = typedBody.map(foldAccents);
  let held = 0;
  let asTyped = 0;
  let inTitle = 0;
  let wholeInTitle = 0;
  let whole = 0;
  for (const typed of words) {
    const word = foldAccents(typed);
    const inTheTitle = matchOf(word, title);
    const inTheBody = matchOf(word, body);
    if (!inTheTitle && !inTheBody) continue;
    held++;
    if (matchOf(typed, typedTitle) || matchOf(typed, typedBody)) asTyped++;
    if (inTheTitle) inTitle++;
    if (inTheTitle === "whole") wholeInTitle++;
    if (inTheTitle === "whole" || inTheBody === "whole") whole++;
  }
  if (held === 0) return null;
  const exactTitle = title.length === words.length && words.every((word, i) => matchOf(foldAccents(word), [title[i]!]) === "whole") ? 1 : 0;
  return [held, asTyped, exactTitle, wholeInTitle, inTitle, whole];
}

/** A text's words as the search box reads words (src/lib/search-query.ts). */
const textWords = (text: string) => text.normalize("NFKC").toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** How `word` occurs in `text`: as a whole word (or with another ending), as a prefix, or not. */
function matchOf(word: string, text: readonly string[]): "whole" | "prefix" | null {
  let found: "prefix" | null = null;
  for (const candidate of text) {
    if (candidate === word || stem(candidate) === stem(word)) return "whole";
    if (candidate.startsWith(word)) found = "prefix";
  }
  return found;
}

/**
 * Both lists as one, best answer first (`relevance`), without the same address twice, at most
 * MAX_RESULTS; results that hold none of the words are left out. Equals keep the sources' own
 * orders, in turns.
 */
export function mergeResults(words: readonly string[], open: readonly SearchResult[], locked: readonly SearchResult[]): SearchResult[] {
  const inTurns: SearchResult[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < Math.max(open.length, locked.length); i++) {
    for (const result of [open[i], locked[i]]) {
      if (result && !seen.has(result.url)) {
        seen.add(result.url);
        inTurns.push(result);
      }
    }
  }
  return inTurns
    .map((result) => ({ result, score: relevance(words, result) }))
    .filter((scored): scored is { result: SearchResult; score: number[] } => scored.score !== null)
    .sort((a, b) => compareScores(b.score, a.score))
    .slice(0, MAX_RESULTS)
    .map(({ result }) => result);
}

function compareScores(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}
