/**
 * The chapter list every page's navigator is built with: slug, title, level and order only
 * (never content, so locked chapters stay locked). Read from the build's content snapshot; a
 * page rendered without one (astro dev) gets an empty list and the navigator loads it live.
 */
import { readSnapshot } from "../server/build/snapshot.ts";
import type { ChapterEntry } from "../stores/reader-chapters.ts";

let cached: ChapterEntry[] | undefined;

export function navigatorChapters(): ChapterEntry[] {
  if (cached) return cached;
  try {
    cached = readSnapshot().chapters.map(({ id, slug, title, level, order }) => ({ id, slug, title, level, order }));
  } catch {
    cached = [];
  }
  return cached;
}
