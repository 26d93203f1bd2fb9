/**
 * The chapter list the build knows: slug, title, level and order only (never content, so locked
 * chapters stay locked), read from the build's content snapshot; `/` names the first chapter
 * from it. (No page carries the list: decision 0029.) Without a snapshot (astro dev), an empty list.
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
