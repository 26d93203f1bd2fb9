/**
 * The open level's static search index (decision 0031): the files the build writes
 * (src/server/build/static-index.ts) and the search box reads (src/islands/reader/search/), and
 * the words both make of a text. Pure code: the build and the browser share it.
 *
 * - `/search-index/entry.json` (`SearchEntry`): the whole index and, after text edits, its delta
 *   (decision 0030), each a part in a folder named by its content: its records' count and the first
 *   root of each of its chunks. Asked once per page.
 * - `/search-index/{id}/terms/{k}.json` (`TermRow[]`): chunk k of the part's roots, in order, each
 *   with the records that hold it (their numbers, each the gap from the one before, base 36) and how
 *   much it weighs in each (a digit of WEIGHT_DIGITS; none for a root most records hold). A search
 *   asks for the chunks its words' roots fall in, nothing else.
 * - `/search-index/{id}/records/{n}.json` (`IndexedRecord`): record n, the passage a result shows,
 *   asked for the results shown only.
 *
 * A root is a word as both sides match it: lowercased (NFKC), accents folded as the locked levels'
 * search folds them (src/lib/accent-folding.ts), a plural or verb ending taken off (`stem`).
 */
import { foldAccents } from "./accent-folding.ts";

export const SEARCH_INDEX_DIR = "search-index";
export const SEARCH_ENTRY = `/${SEARCH_INDEX_DIR}/entry.json`;

/** One index (the whole one, or its delta). */
export interface IndexPart {
  /** The folder its files are in, named by their content. */
  id: string;
  records: number;
  /** The chapters it holds. */
  chapters: number;
  /** The first root of each chunk: chunk k holds the roots from chunks[k] to before chunks[k + 1]. */
  chunks: string[];
}

export interface SearchEntry {
  whole: IndexPart;
  /** The chapters changed since the whole index was written (decision 0030), or null. */
  delta: IndexPart | null;
}

/** A root, the records that hold it (gaps, base 36, comma-separated) and its weight in each (WEIGHT_DIGITS; "": all alike). */
export type TermRow = [root: string, records: string, weights: string];

/** What a result shows of a record: its address, titles, its chapter's text stamp (decision 0015) and its text. */
export interface IndexedRecord {
  url: string;
  title: string;
  chapter: string;
  stamp: string;
  content: string;
}

export const termsFile = (part: string, chunk: number) => `/${SEARCH_INDEX_DIR}/${part}/terms/${chunk}.json`;
export const recordFile = (part: string, record: number) => `/${SEARCH_INDEX_DIR}/${part}/records/${record}.json`;

/** A root's weight in a record, from 1 (lightest) to 16: one digit of these. */
export const WEIGHT_DIGITS = "0123456789abcdef";

/** A word without a plural or verb ending, for words of five letters or more (habits, habit; holding, hold). */
export const stem = (word: string): string => (word.length > 4 ? word.replace(/(?:ies|es|s|ing|ed)$/, "") : word);

const WORD = /[\p{L}\p{N}]+/gu;

/** Roots already made: a book's text says the same words again and again. */
const roots = new Map<string, string>();

/** The root of a word as `searchWords` gives it (lowercased): folded, then stemmed. */
export function rootOf(word: string): string {
  let root = roots.get(word);
  if (root === undefined) roots.set(word, (root = stem(foldAccents(word))));
  return root;
}

/** The words of a text as written, each with where it starts and ends, and its root. */
export function textWords(text: string): Array<{ start: number; end: number; root: string }> {
  return Array.from(text.matchAll(WORD), (match) => ({
    start: match.index,
    end: match.index + match[0].length,
    root: rootOf(match[0].normalize("NFKC").toLowerCase()),
  }));
}

/** A record's posting list as a row's two strings: records ascending, weights 1-16 (`uniform`: left out). */
export function encodePostings(postings: ReadonlyArray<readonly [record: number, weight: number]>, uniform = false): [records: string, weights: string] {
  let last = 0;
  const gaps = postings.map(([record], i) => {
    const gap = i === 0 ? record : record - last;
    last = record;
    return gap.toString(36);
  });
  return [gaps.join(","), uniform ? "" : postings.map(([, weight]) => WEIGHT_DIGITS[weight - 1]).join("")];
}

/** A row's records and their weights (1-16; 8 each where the row leaves them out). */
export function decodePostings(records: string, weights: string): Array<[record: number, weight: number]> {
  let at = 0;
  return records.split(",").map((gap, i) => {
    at += parseInt(gap, 36);
    return [at, weights ? WEIGHT_DIGITS.indexOf(weights[i]!) + 1 : 8];
  });
}

/**
 * The chunks of `chunks` (their first roots) that may hold `root`, or with `prefix` every root
 * that starts with it.
 */
export function chunksFor(chunks: readonly string[], root: string, prefix: boolean): number[] {
  // The last chunk that starts at or before `root` (binary search; the first chunk starts with "").
  let low = 0;
  let high = chunks.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (chunks[middle]! <= root) low = middle;
    else high = middle - 1;
  }
  const found = [low];
  if (prefix) for (let k = low + 1; k < chunks.length && chunks[k]!.startsWith(root); k++) found.push(k);
  return found;
}
