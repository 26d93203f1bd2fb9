/**
 * Searching the open level's static index in the browser (decision 0031; its files:
 * src/lib/static-search-index.ts): which chunks a query needs, which records answer it best, and
 * the stretch of a record's text a result shows. Pure: sources.ts fetches the files.
 *
 * Every word must be found (as the locked levels' search requires them all): each by its root
 * (habits and habit alike, accents forgiven), the last one, being typed, also as the start of a
 * longer root. Records are ranked by BM25 (the weights the index holds for each root in each
 * record, each root's rarity in the book), a word found only as the start of a longer one
 * counting less.
 */
import { searchWords, type SnippetPart } from "../../../lib/search-query.ts";
import { chunksFor, decodePostings, rootOf, textWords, type IndexPart, type TermRow } from "../../../lib/static-search-index.ts";

/** A word of a query as the index is asked for it. */
export interface QueryWord {
  root: string;
  /** Whether a root that starts with it answers too (the last word, of two letters or more). */
  prefix: boolean;
}

/** How much a word found only as the start of a longer root counts (attention for "att"). */
const PREFIX_ONLY = 0.6;

/** The words of a query (src/lib/search-query.ts: at most eight, letters and digits), as roots. */
export function queryWords(query: string): QueryWord[] {
  const words = searchWords(query);
  return words.map((word, i) => ({ root: rootOf(word), prefix: i === words.length - 1 && word.length >= 2 }));
}

const answers = (word: QueryWord, root: string) => root === word.root || (word.prefix && root.startsWith(word.root));

/** The chunks of `part` that hold the roots `words` may be found by, ascending. */
export function chunksNeeded(part: IndexPart, words: readonly QueryWord[]): number[] {
  return [...new Set(words.flatMap((word) => chunksFor(part.chunks, word.root, word.prefix)))].sort((a, b) => a - b);
}

/** A record that answers a query: its part (0: the whole index, 1: its delta) and number, and how well. */
export interface Ranked {
  part: number;
  record: number;
  score: number;
}

/**
 * The `limit` records that answer every word of `words` best, from the rows of the chunks each
 * part's search needed (`chunksNeeded`). A root's rarity counts over the parts together.
 */
export function rank(words: readonly QueryWord[], parts: ReadonlyArray<{ records: number; rows: readonly TermRow[] }>, limit: number): Ranked[] {
  if (words.length === 0) return [];
  const total = parts.reduce((sum, part) => sum + part.records, 0);
  const holding = new Map<string, number>();
  const decoded = parts.map(({ rows }) =>
    rows.map(([root, records, weights]) => {
      const postings = decodePostings(records, weights);
      holding.set(root, (holding.get(root) ?? 0) + postings.length);
      return { root, postings };
    }),
  );
  // BM25's rarity of a root: how few of the records hold it.
  const rarity = (root: string) => {
    const held = holding.get(root)!;
    return Math.log(1 + (total - held + 0.5) / (held + 0.5));
  };
  let scores: Map<number, number> | null = null;
  // (A record's key: its part and number in one.)
  const key = (part: number, record: number) => record * 2 + part;
  for (const word of words) {
    const best = new Map<number, number>();
    decoded.forEach((rows, part) => {
      for (const { root, postings } of rows) {
        if (!answers(word, root)) continue;
        const weight = rarity(root) * (root === word.root ? 1 : PREFIX_ONLY);
        for (const [record, share] of postings) {
          const at = key(part, record);
          best.set(at, Math.max(best.get(at) ?? 0, weight * share));
        }
      }
    });
    const before: Map<number, number> | null = scores;
    scores = new Map();
    for (const [at, score] of best) if (!before || before.has(at)) scores.set(at, (before?.get(at) ?? 0) + score);
  }
  return [...scores!]
    .map(([at, score]) => ({ part: at % 2, record: Math.floor(at / 2), score }))
    .sort((a, b) => b.score - a.score || a.record - b.record || a.part - b.part)
    .slice(0, limit);
}

/** Words an excerpt shows, and how many of them come before its first match. */
const EXCERPT_WORDS = 24;
const LEAD_WORDS = 4;

/**
 * The stretch of `content` a result shows: EXCERPT_WORDS words, where the most of the query's
 * words are found (then the most matches), a few words before the first; each match marked, the
 * text as written. `from`: where the passage's own text starts (a record's content begins with its
 * title, which a result shows apart).
 */
export function excerptOf(content: string, words: readonly QueryWord[], from = 0): SnippetPart[] {
  const tokens = textWords(content).filter((token) => token.start >= from);
  if (tokens.length === 0) return [];
  const found = tokens.map(({ root }) => words.findIndex((word) => answers(word, root)));
  let best = { start: 0, distinct: -1, matches: -1 };
  found.forEach((word, at) => {
    if (word < 0) return;
    const start = Math.max(0, Math.min(at - LEAD_WORDS, tokens.length - EXCERPT_WORDS));
    const inside = found.slice(start, start + EXCERPT_WORDS).filter((w) => w >= 0);
    const distinct = new Set(inside).size;
    if (distinct > best.distinct || (distinct === best.distinct && inside.length > best.matches)) best = { start, distinct, matches: inside.length };
  });
  const end = Math.min(tokens.length, best.start + EXCERPT_WORDS);
  const parts: SnippetPart[] = [];
  let at = tokens[best.start]!.start;
  for (let token = best.start; token < end; token++) {
    const { start, end: stop } = tokens[token]!;
    if (found[token]! < 0) continue;
    if (start > at) parts.push({ text: content.slice(at, start) });
    parts.push({ text: content.slice(start, stop), mark: true });
    at = stop;
  }
  const last = tokens[end - 1]!.end;
  if (last > at) parts.push({ text: content.slice(at, last) });
  return parts;
}
