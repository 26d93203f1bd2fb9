/** The chapters a reader is shown (SPEC.md sections 4 and 5): one level's, if they may read it. */
import { canAccess, levelOf, type Level } from "./levels.ts";

/** What the reader needs of a chapter: never its content. */
export interface ChapterEntry {
  id: number;
  slug: string;
  title: string;
  level: string | null;
  order: number;
}

/** The chapters of one level a reader holding `held` may open, in reading order. */
export function chaptersFor(chapters: readonly ChapterEntry[], level: Level, held: Level | null): ChapterEntry[] {
  return chapters
    .filter((c) => levelOf(c.level) === level && canAccess(held, level))
    .sort((a, b) => a.order - b.order || a.id - b.id);
}
