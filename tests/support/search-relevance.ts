/**
 * The search relevance set (issue 22: 9): queries a reader would type, each with the passage that
 * should come first, over the seed book. Both sources are stood in for by every passage holding
 * any of the words (as the static index and PostgreSQL find them, or more), in book order (no
 * source's own ranking helps), each with a snippet of 24 words around its first match, as the
 * sources send. The drawer's ordering (merge-results.ts) then decides what comes first. The unit
 * test asserts the score; `npm run bench` prints it.
 */
import { mergeResults } from "../../src/islands/reader/search/merge-results.ts";
import { searchWords, type SearchResult } from "../../src/lib/search-query.ts";
import { loadBook } from "../../src/server/content/book.ts";

/** Each query and the address that should come first (null: nothing should be found). */
export const RELEVANCE_SET: ReadonlyArray<{ query: string; first: string | null }> = [
  { query: "Testing a Belief Against Evidence", first: "/the-belief-audit#testing-a-belief-against-evidence" },
  { query: "Evidence Before Feeling", first: "/identity-by-design#evidence-before-feeling" },
  { query: "The Identity Statement", first: "/identity-by-design#the-identity-statement" },
  { query: "Defaults and Tripwires", first: "/decision-architecture#defaults-and-tripwires" },
  { query: "The Pre-Decision Brief", first: "/decision-architecture#the-pre-decision-brief" },
  { query: "Reviewing Without Verdicts", first: "/decision-architecture#reviewing-without-verdicts" },
  { query: "Your State Is Contagious", first: "/the-leverage-point#your-state-is-contagious" },
  { query: "A Protocol for Hard Hours", first: "/under-load#a-protocol-for-hard-hours" },
  { query: "What Remains", first: "/under-load#what-remains" },
  { query: "The Narrowing", first: "/under-load#the-narrowing" },
  { query: "Load-Bearing Beliefs", first: "/the-belief-audit#load-bearing-beliefs" },
  { query: "The Half-Second Gap", first: "/signal-and-noise#the-half-second-gap" },
  { query: "Fear as Information", first: "/the-anatomy-of-a-reaction#fear-as-information" },
  { query: "The Attention Ledger", first: "/where-attention-goes#the-attention-ledger" },
  { query: "The Cost of Switching", first: "/where-attention-goes#the-cost-of-switching" },
  { query: "tripwire", first: "/decision-architecture#defaults-and-tripwires" },
  { query: "asdfghjkl", first: null },
];

/** Light markup as a reader sees it (as the server's search strips it). */
const plain = (text: string) => text.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/[*#>_]+/g, "");

interface Passage {
  result: Omit<SearchResult, "snippet">;
  text: string;
}

function passages(): Passage[] {
  return loadBook().flatMap((chapter) => {
    const level = (chapter.level ?? "Operator") as SearchResult["level"];
    const own: Passage = { result: { url: `/${chapter.slug}`, level, chapter: chapter.title, title: chapter.title }, text: plain(chapter.content) };
    const parts = chapter.subsections.map((part) => ({
      result: { url: `/${chapter.slug}#${part.slug}`, level, chapter: chapter.title, title: part.title },
      text: plain(part.content),
    }));
    return [own, ...parts];
  });
}

/** A source's answer for a passage holding any word: its 24-word snippet around the first match, matches marked. */
function found(passage: Passage, words: readonly string[]): SearchResult | null {
  const holds = (token: string) => words.some((word) => token.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "").startsWith(word));
  const tokens = passage.text.split(/\s+/).filter(Boolean);
  const inTitle = passage.result.title.split(/[\s-]+/).some(holds);
  const at = tokens.findIndex(holds);
  if (at < 0 && !inTitle) return null;
  const start = Math.max(0, at - 8);
  const snippet = tokens.slice(start, start + 24).map((token) => (holds(token) ? { text: `${token} `, mark: true as const } : { text: `${token} ` }));
  return { ...passage.result, snippet };
}

/** What comes first for `query`, both sources in book order. */
export function firstFor(query: string, book = passages()): string | null {
  const words = searchWords(query);
  const hits = book.map((passage) => found(passage, words)).filter((hit): hit is SearchResult => hit !== null);
  const merged = mergeResults(
    words,
    hits.filter((hit) => hit.level === "Operator"),
    hits.filter((hit) => hit.level !== "Operator"),
  );
  return merged[0]?.url ?? null;
}

/** How many of the set come first (and which do not). */
export function relevanceScore(): { first: number; of: number; missed: string[] } {
  const book = passages();
  const missed = RELEVANCE_SET.filter(({ query, first }) => firstFor(query, book) !== first).map(({ query }) => query);
  return { first: RELEVANCE_SET.length - missed.length, of: RELEVANCE_SET.length, missed };
}
