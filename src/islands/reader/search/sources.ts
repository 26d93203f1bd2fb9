/**
 * Where the search box's results come from. Loaded only when the box is first used: the static
 * index's script (`/pagefind/pagefind.js`, with its WebAssembly and index files) is fetched by the
 * browser at that moment, never before.
 */
import { canAccess, type Level } from "../../../lib/levels.ts";
import { SEARCH_MIN_LENGTH, type SearchResult } from "../../../lib/search-query.ts";
import { excerptParts, keepLiveOperator } from "./merge-results.ts";

interface PagefindResult {
  data(): Promise<{ url: string; excerpt: string; meta: Record<string, string> }>;
}
interface Pagefind {
  options(options: Record<string, unknown>): Promise<void>;
  search(query: string): Promise<{ results: PagefindResult[] } | null>;
}

const STATIC_INDEX = "/pagefind/pagefind.js";
let pagefind: Promise<Pagefind> | undefined;

function loadPagefind(): Promise<Pagefind> {
  pagefind ??= (import(/* @vite-ignore */ STATIC_INDEX) as Promise<Pagefind>).then(async (module) => {
    await module.options({ excerptLength: 24 });
    return module;
  });
  pagefind.catch(() => (pagefind = undefined));
  return pagefind;
}

let liveOperator: Promise<Set<string>> | undefined;

/** The slugs the live chapter list shows as Operator (fetched once per page, from the CDN's copy). */
function liveOperatorSlugs(): Promise<Set<string>> {
  liveOperator ??= fetch("/api/chapters", { credentials: "include" })
    .then((response) => {
      if (!response.ok) throw new Error(`${response.status}: chapter list`);
      return response.json() as Promise<Array<{ slug: string; level: string | null }>>;
    })
    .then((list) => new Set(list.filter((c) => (c.level ?? "Operator") === "Operator").map((c) => c.slug)));
  liveOperator.catch(() => (liveOperator = undefined));
  return liveOperator;
}

const parseHtml = (html: string) => new DOMParser().parseFromString(`<body>${html}</body>`, "text/html").body;

/** Operator passages from the static index, kept only where the live list still shows them as Operator. */
export async function searchOpen(query: string): Promise<SearchResult[]> {
  if (query.trim().length < SEARCH_MIN_LENGTH) return [];
  const [index, live] = await Promise.all([loadPagefind(), liveOperatorSlugs()]);
  const found = await index.search(query);
  const data = await Promise.all((found?.results ?? []).slice(0, 12).map((result) => result.data()));
  const results = data.map(
    (item): SearchResult => ({
      url: item.url,
      level: "Operator",
      chapter: item.meta.chapter ?? "",
      title: item.meta.title ?? "",
      snippet: excerptParts(item.excerpt, parseHtml),
    }),
  );
  return keepLiveOperator(results, live);
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
