/**
 * The static search index of the open level, written into the built site at `/pagefind/` with
 * Pagefind's Node API. Chapter pages are not prerendered (docs/decisions/0007), so the records
 * come from the database, through the content snapshot (search-records.ts). The browser loads the
 * index only when the search box is used (src/islands/reader/search/).
 *
 * The index is as fresh as the last site build, and a build follows every change of what it holds
 * (a text edit of the open level included): a chapter or subsection that leaves the open level
 * leaves the index with the build its move triggers. Until that build is live (and on a page
 * opened before it) the browser, at each search, drops results whose chapter the live chapter
 * list no longer shows as Operator, or shows with another text stamp (src/server/search/text-stamps.ts).
 *
 * A build whose pages were current (site-builder.ts) keeps the whole index and writes the chapters
 * changed since it into a second, small one at `/pagefind-delta/` (decision 0030): indexing a
 * book of 1,000 chapters x 10 subsections takes 11-13 s, one chapter well under a second. The
 * browser searches both; the whole index's records of a changed chapter carry its old text stamp,
 * so the live list's check drops them. Past DELTA_MAX_CHAPTERS changed chapters, or when a chapter
 * has left the open level, the whole index is written again and the delta goes; the local host's
 * publisher also writes it again once the delta is live (src/server/host/host.ts), so the earlier
 * text leaves the public files as it did before.
 */
import fs from "node:fs";
import path from "node:path";
import * as pagefind from "pagefind";
import type { IndexRecord } from "./search-records.ts";
import { spellForStaticIndex } from "../../lib/accent-folding.ts";
import { SEARCH_DELTA_FILE, type SearchDelta } from "../../lib/search-delta.ts";

/** Where the whole index and the delta go in the site (and the addresses they are served at). */
export const INDEX_DIR = "pagefind";
export const DELTA_DIR = "pagefind-delta";
/** The chapters of the whole index and their text stamps when it was written (not served: a dot file). */
const INDEX_STAMPS_FILE = ".search-stamps.json";
/** The most changed (or gone) chapters a delta stands for before the whole index is written again. */
export const DELTA_MAX_CHAPTERS = 25;

const chapterOf = (record: IndexRecord) => record.url.slice(1).split("#")[0]!;

/** Each chapter's text stamp, by slug, as `records` carry them. */
function stampsOf(records: readonly IndexRecord[]): Map<string, string> {
  return new Map(records.map((record) => [chapterOf(record), record.meta.stamp]));
}

/** Writes a Pagefind index of `records` into `out` (a folder that does not exist yet). */
async function writeIndex(records: readonly IndexRecord[], out: string): Promise<void> {
  const { index, errors } = await pagefind.createIndex({ forceLanguage: "en" });
  try {
    if (!index) throw new Error(`Pagefind could not start: ${errors.join("; ")}`);
    // Sent all at once: Pagefind's service takes them in order, and the messages' round trips
    // overlap (11,000 records: 4.1 s against 5.4-6.3 s one after another).
    const added = await Promise.all(
      // Pagefind folds accents itself, but for letters Unicode does not decompose (ł, ø, đ): those are
      // spelt so that it folds them too (issue 44: 5), and spelt back in the browser (search/sources.ts).
      records.map((record) => index.addCustomRecord({ ...record, content: spellForStaticIndex(record.content) }).then((result) => ({ record, result }))),
    );
    for (const { record, result } of added) {
      if (result.errors.length) throw new Error(`Pagefind refused ${record.url}: ${result.errors.join("; ")}`);
    }
    const written = await index.writeFiles({ outputPath: out });
    if (written.errors.length) throw new Error(`Pagefind could not write the index: ${written.errors.join("; ")}`);
    // Pagefind's ready-made interfaces: the search box is the navigator's own.
    for (const name of fs.readdirSync(out)) {
      if (/^pagefind-(ui|modular-ui|component-ui|highlight)\./.test(name)) fs.rmSync(path.join(out, name));
    }
  } finally {
    await pagefind.close();
  }
}

function writeDeltaFile(siteDir: string, delta: SearchDelta): void {
  fs.writeFileSync(path.join(siteDir, INDEX_DIR, SEARCH_DELTA_FILE), JSON.stringify(delta));
}

/** What a site's search files hold: whether a delta, and the text stamps of every chapter text in them. */
export interface IndexWritten {
  whole: boolean;
  deltaChapters: number;
  /** The text stamps of the chapter texts the files hold (the whole index's and the delta's), sorted. */
  textStamps: string[];
}

const sortedStamps = (...maps: Map<string, string>[]) => [...new Set(maps.flatMap((map) => [...map.values()]))].sort();

/** Writes the whole index of `records` into `siteDir/pagefind`, with no delta. */
export async function writeSearchIndex(records: readonly IndexRecord[], siteDir: string): Promise<IndexWritten> {
  for (const dir of [INDEX_DIR, DELTA_DIR]) fs.rmSync(path.join(siteDir, dir), { recursive: true, force: true });
  await writeIndex(records, path.join(siteDir, INDEX_DIR));
  const stamps = stampsOf(records);
  fs.writeFileSync(path.join(siteDir, INDEX_STAMPS_FILE), JSON.stringify(Object.fromEntries(stamps)));
  writeDeltaFile(siteDir, { chapters: 0 });
  return { whole: true, deltaChapters: 0, textStamps: sortedStamps(stamps) };
}

/** Whether the site in `siteDir` has a search delta (its whole index then still holds the changed chapters' earlier text). */
export function hasSearchDelta(siteDir: string): boolean {
  try {
    return (JSON.parse(fs.readFileSync(path.join(siteDir, INDEX_DIR, SEARCH_DELTA_FILE), "utf8")) as SearchDelta).chapters > 0;
  } catch {
    return false;
  }
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
  const now = stampsOf(records);
  const changed = indexed && new Set([...now].filter(([slug, stamp]) => indexed.get(slug) !== stamp).map(([slug]) => slug));
  const gone = indexed ? [...indexed.keys()].some((slug) => !now.has(slug)) : false;
  if (!indexed || gone || !fs.existsSync(path.join(siteDir, INDEX_DIR)) || changed!.size > DELTA_MAX_CHAPTERS) {
    return writeSearchIndex(records, siteDir);
  }
  fs.rmSync(path.join(siteDir, DELTA_DIR), { recursive: true, force: true });
  if (changed!.size) {
    const out = path.join(siteDir, DELTA_DIR);
    await writeIndex(
      records.filter((record) => changed!.has(chapterOf(record))),
      out,
    );
    // Its code and WebAssembly are the whole index's: the browser loads those once, from
    // /pagefind/ (netlify.toml sends a request for a file missing here there).
    for (const name of fs.readdirSync(out)) {
      if (/^(pagefind(-worker)?\.js|wasm\..*\.pagefind)$/.test(name)) fs.rmSync(path.join(out, name));
    }
  }
  writeDeltaFile(siteDir, { chapters: changed!.size });
  return { whole: false, deltaChapters: changed!.size, textStamps: sortedStamps(indexed, now) };
}
