/**
 * Where the search box's results come from. Loaded only when the box is first used: the static
 * index (decision 0031, src/lib/static-search-index.ts) is asked for at that moment, never before,
 * and of it only its entry, the chunks the words fall in and the records shown.
 */
import { canAccess, type Level } from "../../../lib/levels.ts";
import { passageSnippet, SEARCH_MIN_LENGTH, type SearchResult } from "../../../lib/search-query.ts";
import { recordFile, SEARCH_ENTRY, termsFile, type IndexedRecord, type SearchEntry, type TermRow } from "../../../lib/static-search-index.ts";
import { keepLiveOperator } from "./merge-results.ts";
import { chunksNeeded, excerptOf, queryWords, rank } from "./static-search.ts";

/** The records a search shows at most from the static index (the merged list keeps 20 of both sources). */
const SHOWN = 12;

/** The index's files this page has asked for, each once (a part's files never change: its folder is named by them). */
const files = new Map<string, Promise<unknown>>();

function file<T>(url: string): Promise<T> {
  let got = files.get(url);
  if (!got) {
    got = fetch(url).then((response) => (response.ok ? response.json() : Promise.reject(new Error(`${response.status}: ${url}`))));
    files.set(url, got);
    // (One that failed is asked for again by the next search.)
    got.catch(() => files.delete(url));
  }
  return got as Promise<T>;
}

let liveList: Promise<Map<string, string | undefined>> | undefined;

/**
 * The live chapter list's Operator chapters (slug and text stamp), asked for at each search, so a
 * page open since before a chapter was withdrawn never shows it. Cheap: `/api/chapters` is the
 * CDN's answer (the same for everyone, purged at every change), revalidated by its ETag (a 304,
 * no function call); the searches that start while one request is on its way share it.
 */
function liveOperatorChapters(): Promise<Map<string, string | undefined>> {
  liveList ??= fetch("/api/chapters", { credentials: "include", cache: "no-cache" })
    .then((response) => {
      if (!response.ok) throw new Error(`${response.status}: chapter list`);
      return response.json() as Promise<Array<{ slug: string; level: string | null; textStamp?: string }>>;
    })
    .then((list) => new Map(list.filter((c) => (c.level ?? "Operator") === "Operator").map((c) => [c.slug, c.textStamp])))
    .finally(() => (liveList = undefined));
  return liveList;
}

/**
 * Operator passages from the static index, kept only where the live list, fetched for this very
 * search, still shows their chapter as Operator with the text the index holds. The whole index is
 * searched with its delta (the chapters edited since it was written: decision 0030), if any.
 */
export async function searchOpen(query: string): Promise<SearchResult[]> {
  const words = queryWords(query);
  if (query.trim().length < SEARCH_MIN_LENGTH || words.length === 0) return [];
  const [entry, live] = await Promise.all([file<SearchEntry>(SEARCH_ENTRY), liveOperatorChapters()]);
  const parts = entry.delta ? [entry.whole, entry.delta] : [entry.whole];
  const loaded = await Promise.all(
    parts.map(async (part) => ({
      records: part.records,
      rows: (await Promise.all(chunksNeeded(part, words).map((chunk) => file<TermRow[]>(termsFile(part.id, chunk))))).flat(),
    })),
  );
  const records = await Promise.all(rank(words, loaded, SHOWN).map(({ part, record }) => file<IndexedRecord>(recordFile(parts[part]!.id, record))));
  const hits = records.map((record) => ({
    result: {
      url: record.url,
      level: "Operator" as const,
      chapter: record.chapter,
      title: record.title,
      snippet: passageSnippet(excerptOf(record.content, words, record.content.startsWith(record.title) ? record.title.length : 0), record.content, record.title),
    },
    stamp: record.stamp,
  }));
  return keepLiveOperator(hits, live);
}

/** Architect and Mastermind passages from the server, asked only for a reader whose level reaches them. */
export async function searchLocked(query: string, held: Level | null): Promise<SearchResult[]> {
  if (query.trim().length < SEARCH_MIN_LENGTH || !canAccess(held, "Architect")) return [];
  const response = await fetch(`/api/search?q=${encodeURIComponent(query)}`, { credentials: "include" });
  // A session that ended meanwhile reads the open level only.
  if (response.status === 401) return [];
  if (!response.ok) throw new Error(`${response.status}: ${(await response.text()) || response.statusText}`);
  return ((await response.json()) as { results: SearchResult[] }).results;
}
