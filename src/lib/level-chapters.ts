/** The chapters a reader is shown (SPEC.md sections 4 and 5): one level's, if they may read it. */
import { canAccess, levelOf, type Level } from "./levels.ts";

/** What the reader needs of a chapter: never its content. */
export interface ChapterEntry {
  id: number;
  slug: string;
  title: string;
  level: string | null;
  order: number;
  /** A locked chapter's teaser, when the operator wrote one (GET /api/chapters). */
  teaser?: string;
}

/** The chapters of one level a reader holding `held` may open, in reading order. */
export function chaptersFor(chapters: readonly ChapterEntry[], level: Level, held: Level | null): ChapterEntry[] {
  return chapters
    .filter((c) => levelOf(c.level) === level && canAccess(held, level))
    .sort((a, b) => a.order - b.order || a.id - b.id);
}

/** The chapters of `level` whose teaser the operator chose to show to readers without access. */
export function teasersFor(chapters: readonly ChapterEntry[], level: Level): Array<ChapterEntry & { teaser: string }> {
  return chapters
    .filter((c): c is ChapterEntry & { teaser: string } => levelOf(c.level) === level && level !== "Operator" && typeof c.teaser === "string" && c.teaser !== "")
    .sort((a, b) => a.order - b.order || a.id - b.id);
}
