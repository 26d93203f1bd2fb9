/**
 * What the browser reads, beside the static search index, of its delta (decision 0030): a file in
 * `/pagefind/` saying how many changed chapters `/pagefind-delta/` holds (0: none, search the
 * whole index alone). Written by src/server/build/static-index.ts, read by the search box.
 */
export const SEARCH_DELTA_FILE = "delta.json";
export const SEARCH_DELTA_PATH = "/pagefind-delta/";

export interface SearchDelta {
  /** Chapters the delta index holds. */
  chapters: number;
}
