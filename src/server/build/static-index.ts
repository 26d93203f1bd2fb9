/**
 * The static search index of the open level, written into the built site at `/search-index/` in
 * the format of src/lib/static-search-index.ts (decision 0031). Chapter pages are not prerendered
 * (docs/decisions/0007), so the records come from the database, through the content snapshot
 * (search-records.ts). The browser loads the index only when the search box is used, and of it
 * only the chunks its words fall in and the records it shows (src/islands/reader/search/).
 *
 * The index is as fresh as the last site build, and a build follows every change of what it holds
 * (a text edit of the open level included): a chapter or subsection that leaves the open level
 * leaves the index with the build its move triggers. Until that build is live (and on a page
 * opened before it) the browser, at each search, drops results whose chapter the live chapter
 * list no longer shows as Operator, or shows with another text stamp (src/server/search/text-stamps.ts).
 *
 * A build whose pages were current (site-builder.ts) keeps the whole index and writes the chapters
 * changed since it into a second, small one, its delta (decision 0030), which the entry names beside
 * it. The browser searches both; the whole index's records of a changed chapter carry its old text
 * stamp, so the live list's check drops them. Past DELTA_MAX_CHAPTERS changed chapters, or when a
 * chapter has left the open level, the whole index is written again and the delta goes; the local
 * host's publisher also writes it again once the delta is live (src/server/host/host.ts), so the
 * earlier text leaves the public files.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { IndexRecord } from "./search-records.ts";
import {
  encodePostings,
  recordFile,
  SEARCH_INDEX_DIR,
  termsFile,
  textWords,
  type IndexedRecord,
  type IndexPart,
  type SearchEntry,
  type TermRow,
} from "../../lib/static-search-index.ts";

/** Where the index goes in the site (the address it is served at). */
export const INDEX_DIR = SEARCH_INDEX_DIR;
const ENTRY_FILE = "entry.json";
/** The chapters of the whole index and their text stamps when it was written (not served: a dot file). */
const INDEX_STAMPS_FILE = ".search-stamps.json";
/** The most changed (or gone) chapters a delta stands for before the whole index is written again. */
export const DELTA_MAX_CHAPTERS = 25;

/**
 * A chunk's size, its JSON before compression: a search asks for the chunk each of its words
 * falls in (and for the last word, being typed, those its prefix spans). Smaller chunks cost a
 * search fewer bytes it does not need and the entry more first roots. With 1,000 chapters x 10
 * subsections, 32 KB gives 190 chunks of 1.7 KB gzip (the median; at most 4.6 KB), and an entry of
 * 0.8 KB (16 KB: 405 chunks, 2.4 KB; 64 KB: 89 chunks of 3.5 KB).
 */
const CHUNK_BYTES = 32_000;

/** BM25's constants: how soon more of a word stops counting, and how much a record's length does. */
const K1 = 1.2;
const B = 0.75;
/** What a word of the record's title adds to its weight there (a title says what the passage is about). */
const TITLE_WEIGHT = 1.5;
/** The heaviest weight a root can have in a record (K1 + 1, and the title's). */
const MAX_WEIGHT = K1 + 1 + TITLE_WEIGHT;

const chapterOf = (record: IndexRecord) => record.url.slice(1).split("#")[0]!;

/** Each chapter's text stamp, by slug, as `records` carry them. */
function stampsOf(records: readonly IndexRecord[]): Map<string, string> {
  return new Map(records.map((record) => [chapterOf(record), record.meta.stamp]));
}

/**
 * Writes `file` (a site path) under `siteDir`. No compressed copies: the site's (precompress.ts)
 * leave this folder out, since brotli at its best over 11,000 records took longer than the rest of
 * a build, and a copy of each would double the files a build whose pages were current copies; the
 * local host gzips a file the first time it is asked for and keeps that (static-site.ts), and
 * Netlify's CDN compresses by itself.
 */
function writeFile(siteDir: string, file: string, text: string): void {
  fs.writeFileSync(path.join(siteDir, file), text);
}

/** The index of `records` as files: its chunks of roots and its records, and the part's entry (its id still to come). */
function indexOf(records: readonly IndexRecord[]): { chunks: TermRow[][]; files: IndexedRecord[] } {
  const roots = new Map<string, Array<[record: number, weight: number]>>();
  const counted = records.map((record) => {
    const words = textWords(record.content);
    const counts = new Map<string, number>();
    for (const { root } of words) counts.set(root, (counts.get(root) ?? 0) + 1);
    return { counts, length: words.length, title: new Set(textWords(record.meta.title).map((word) => word.root)) };
  });
  const averageLength = counted.reduce((sum, { length }) => sum + length, 0) / Math.max(1, counted.length);
  counted.forEach(({ counts, length, title }, n) => {
    for (const [root, count] of counts) {
      const weight = (count * (K1 + 1)) / (count + K1 * (1 - B + (B * length) / averageLength)) + (title.has(root) ? TITLE_WEIGHT : 0);
      const postings = roots.get(root) ?? [];
      postings.push([n, Math.min(16, Math.max(1, Math.round((weight / MAX_WEIGHT) * 16)))]);
      roots.set(root, postings);
    }
  });
  const chunks: TermRow[][] = [];
  let chunk: TermRow[] = [];
  let size = 0;
  for (const root of [...roots.keys()].sort()) {
    const postings = roots.get(root)!;
    // A root most records hold tells little apart: its weights are left out (they were the bulk of its bytes).
    const row: TermRow = [root, ...encodePostings(postings, postings.length > records.length / 2)];
    const bytes = root.length + row[1].length + row[2].length + 8;
    if (chunk.length > 0 && size + bytes > CHUNK_BYTES) {
      chunks.push(chunk);
      chunk = [];
      size = 0;
    }
    chunk.push(row);
    size += bytes;
  }
  if (chunk.length > 0 || chunks.length === 0) chunks.push(chunk);
  const files = records.map(({ url, content, meta }) => ({ url, title: meta.title, chapter: meta.chapter, stamp: meta.stamp, content }));
  return { chunks, files };
}

/** Writes an index of `records` into a folder of its own under `siteDir/search-index`, named by its content. */
function writePart(records: readonly IndexRecord[], siteDir: string): IndexPart {
  const { chunks, files } = indexOf(records);
  const texts = { chunks: chunks.map((rows) => JSON.stringify(rows)), files: files.map((file) => JSON.stringify(file)) };
  const hash = createHash("sha256");
  for (const text of [...texts.chunks, ...texts.files]) hash.update(text).update("\0");
  const id = hash.digest("hex").slice(0, 12);
  for (const folder of ["terms", "records"]) fs.mkdirSync(path.join(siteDir, INDEX_DIR, id, folder), { recursive: true });
  texts.chunks.forEach((text, k) => writeFile(siteDir, termsFile(id, k), text));
  texts.files.forEach((text, n) => writeFile(siteDir, recordFile(id, n), text));
  return {
    id,
    records: records.length,
    chapters: new Set(records.map(chapterOf)).size,
    // (The first chunk from "": every root comes after it.)
    chunks: chunks.map((rows, k) => (k === 0 ? "" : rows[0]![0])),
  };
}

function readEntry(siteDir: string): SearchEntry | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(siteDir, INDEX_DIR, ENTRY_FILE), "utf8")) as SearchEntry;
  } catch {
    return null;
  }
}

/** Writes the entry, and takes out every part's folder it no longer names. */
function writeEntry(siteDir: string, entry: SearchEntry): void {
  writeFile(siteDir, `/${INDEX_DIR}/${ENTRY_FILE}`, JSON.stringify(entry));
  const kept = new Set([entry.whole.id, entry.delta?.id]);
  for (const name of fs.readdirSync(path.join(siteDir, INDEX_DIR))) {
    if (!name.startsWith(ENTRY_FILE) && !kept.has(name)) fs.rmSync(path.join(siteDir, INDEX_DIR, name), { recursive: true, force: true });
  }
}

/** What a site's search files hold: whether a delta, and the text stamps of every chapter text in them. */
export interface IndexWritten {
  whole: boolean;
  deltaChapters: number;
  /** The text stamps of the chapter texts the files hold (the whole index's and the delta's), sorted. */
  textStamps: string[];
}

const sortedStamps = (...maps: Map<string, string>[]) => [...new Set(maps.flatMap((map) => [...map.values()]))].sort();

/** Writes the whole index of `records` into `siteDir/search-index`, with no delta. */
export async function writeSearchIndex(records: readonly IndexRecord[], siteDir: string): Promise<IndexWritten> {
  fs.rmSync(path.join(siteDir, INDEX_DIR), { recursive: true, force: true });
  writeEntry(siteDir, { whole: writePart(records, siteDir), delta: null });
  const stamps = stampsOf(records);
  fs.writeFileSync(path.join(siteDir, INDEX_STAMPS_FILE), JSON.stringify(Object.fromEntries(stamps)));
  return { whole: true, deltaChapters: 0, textStamps: sortedStamps(stamps) };
}

/** Whether the site in `siteDir` has a search delta (its whole index then still holds the changed chapters' earlier text). */
export function hasSearchDelta(siteDir: string): boolean {
  return (readEntry(siteDir)?.delta?.chapters ?? 0) > 0;
}

/**
 * Brings the search index of a copy of a built site up to `records`: the chapters edited or added
 * since its whole index was written go into a delta index. The whole index is written again when
 * a chapter has left the open level (moved, deleted, a draft again: its text must leave the public
 * files now), past DELTA_MAX_CHAPTERS changed chapters, or when the site has no record of what it
 * holds. Answers what was written.
 */
export async function updateSearchIndex(records: readonly IndexRecord[], siteDir: string): Promise<IndexWritten> {
  let indexed: Map<string, string> | null = null;
  try {
    indexed = new Map(Object.entries(JSON.parse(fs.readFileSync(path.join(siteDir, INDEX_STAMPS_FILE), "utf8")) as Record<string, string>));
  } catch {
    // a site written before the delta: the whole index is written again
  }
  const entry = readEntry(siteDir);
  if (!indexed || !entry) return writeSearchIndex(records, siteDir);
  const now = stampsOf(records);
  const changed = new Set([...now].filter(([slug, stamp]) => indexed.get(slug) !== stamp).map(([slug]) => slug));
  const gone = [...indexed.keys()].some((slug) => !now.has(slug));
  if (gone || changed.size > DELTA_MAX_CHAPTERS) return writeSearchIndex(records, siteDir);
  const delta = changed.size ? writePart(records.filter((record) => changed.has(chapterOf(record))), siteDir) : null;
  writeEntry(siteDir, { whole: entry.whole, delta });
  return { whole: false, deltaChapters: changed.size, textStamps: sortedStamps(indexed, now) };
}
