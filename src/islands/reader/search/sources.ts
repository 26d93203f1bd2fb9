/**
 * Where the search box's results come from. Loaded only when the box is first used: the static
 * index's script (`/pagefind/pagefind.js`, with its WebAssembly and index files, and its delta's
 * count) is fetched by the browser at that moment, never before.
 */
import { canAccess, type Level } from "../../../lib/levels.ts";
import { SEARCH_MIN_LENGTH, type SearchResult } from "../../../lib/search-query.ts";
import { excerptParts, keepLiveOperator, type StaticHit } from "./merge-results.ts";
import { passageSnippet } from "../../../lib/search-query.ts";
import { spellForStaticIndex, spellFromStaticIndex } from "../../../lib/accent-folding.ts";
import { SEARCH_DELTA_FILE, SEARCH_DELTA_PATH, type SearchDelta } from "../../../lib/search-delta.ts";

interface PagefindResult {
  data(): Promise<{ url: string; content: string; excerpt: string; meta: Record<string, string> }>;
}
interface Pagefind {
  options(options: Record<string, unknown>): Promise<void>;
  mergeIndex(path: string): Promise<void>;
  search(query: string): Promise<{ results: PagefindResult[] } | null>;
}

const STATIC_INDEX = "/pagefind/pagefind.js";
let pagefind: Promise<Pagefind> | undefined;

/** How many changed chapters the index's delta holds (decision 0030); none when it cannot tell. */
async function deltaChapters(): Promise<number> {
  try {
    const response = await fetch(`/pagefind/${SEARCH_DELTA_FILE}`);
    return response.ok ? ((await response.json()) as SearchDelta).chapters || 0 : 0;
  } catch {
    return 0;
  }
}

/**
 * The static index, with its delta merged in when it holds chapters changed since the whole index
 * was written (their records in the whole index carry an older text stamp, which the live list's
 * check drops).
 */
function loadPagefind(): Promise<Pagefind> {
  pagefind ??= Promise.all([import(/* @vite-ignore */ STATIC_INDEX) as Promise<Pagefind>, deltaChapters()]).then(async ([module, delta]) => {
    await module.options({ excerptLength: 24 });
    if (delta > 0) await module.mergeIndex(SEARCH_DELTA_PATH);
    return module;
  });
  pagefind.catch(() => (pagefind = undefined));
  return pagefind;
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

const parseHtml = (html: string) => new DOMParser().parseFromString(`<body>${html}</body>`, "text/html").body;

/**
 * Operator passages from the static index, kept only where the live list, fetched for this very
 * search, still shows their chapter as Operator with the text the index holds.
 */
export async function searchOpen(query: string): Promise<SearchResult[]> {
  if (query.trim().length < SEARCH_MIN_LENGTH) return [];
  const [index, live] = await Promise.all([loadPagefind(), liveOperatorChapters()]);
  // The index spells a few accented letters its own way, so that it forgives their accents too (issue 44: 5).
  const found = await index.search(spellForStaticIndex(query));
  const data = await Promise.all((found?.results ?? []).slice(0, 12).map((result) => result.data()));
  const hits = data.map(
    (item): StaticHit => ({
      result: {
        url: item.url,
        level: "Operator",
        chapter: item.meta.chapter ?? "",
        title: item.meta.title ?? "",
        snippet: passageSnippet(excerptParts(spellFromStaticIndex(item.excerpt), parseHtml), spellFromStaticIndex(item.content), item.meta.title ?? ""),
      },
      stamp: item.meta.stamp,
    }),
  );
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
