/**
 * Reading chapters and subsections. Soft-deleted rows never come back from these functions.
 */
import { and, asc, eq, getTableColumns, inArray, isNull, sql } from "drizzle-orm";
import type { Level } from "../../lib/levels.ts";
import type { Database } from "../db/client.ts";
import { chapters, subsections, type ChapterRow, type SubsectionRow } from "../db/schema.ts";

/** What the public chapter list shows: no content. */
export type ChapterSummary = Pick<ChapterRow, "id" | "slug" | "title" | "level" | "order" | "readingTime">;
export type Chapter = Omit<ChapterRow, "deletedAt">;
export type Subsection = Omit<SubsectionRow, "deletedAt">;

const summaryColumns = {
  id: chapters.id,
  slug: chapters.slug,
  title: chapters.title,
  level: chapters.level,
  order: chapters.order,
  readingTime: chapters.readingTime,
};

const { deletedAt: _chapterDeletedAt, ...chapterColumns } = getTableColumns(chapters);
const { deletedAt: _subsectionDeletedAt, ...subsectionColumns } = getTableColumns(subsections);

/** Level rank for sorting: a chapter with no level counts as Operator. */
const levelRank = sql`case coalesce(${chapters.level}, 'Operator') when 'Operator' then 0 when 'Architect' then 1 else 2 end`;

/** Live chapters, by level (Operator first), then order, then id. */
export async function listChapters(db: Database, levels?: readonly Level[]): Promise<ChapterSummary[]> {
  return db
    .select(summaryColumns)
    .from(chapters)
    .where(and(isNull(chapters.deletedAt), levels ? levelFilter(levels) : undefined))
    .orderBy(levelRank, asc(chapters.order), asc(chapters.id));
}

/** Live chapters with their content, for the given levels, in list order. */
export async function listChaptersWithContent(db: Database, levels: readonly Level[]): Promise<Chapter[]> {
  return db
    .select(chapterColumns)
    .from(chapters)
    .where(and(isNull(chapters.deletedAt), levelFilter(levels)))
    .orderBy(levelRank, asc(chapters.order), asc(chapters.id));
}

export async function getChapterBySlug(db: Database, slug: string): Promise<Chapter | undefined> {
  const [row] = await db
    .select(chapterColumns)
    .from(chapters)
    .where(and(eq(chapters.slug, slug), isNull(chapters.deletedAt)));
  return row;
}

export async function getChapterById(db: Database, id: number): Promise<Chapter | undefined> {
  const [row] = await db
    .select(chapterColumns)
    .from(chapters)
    .where(and(eq(chapters.id, id), isNull(chapters.deletedAt)));
  return row;
}

/** Live subsections of a chapter, by order then id. */
export async function listSubsections(db: Database, chapterId: number): Promise<Subsection[]> {
  return db
    .select(subsectionColumns)
    .from(subsections)
    .where(and(eq(subsections.chapterId, chapterId), isNull(subsections.deletedAt)))
    .orderBy(asc(subsections.order), asc(subsections.id));
}

/** Live subsections of several chapters at once, grouped by chapter id, each group in order. */
export async function listSubsectionsOf(
  db: Database,
  chapterIds: readonly number[],
): Promise<Map<number, Subsection[]>> {
  const groups = new Map<number, Subsection[]>(chapterIds.map((id) => [id, []]));
  if (chapterIds.length === 0) return groups;
  const rows = await db
    .select(subsectionColumns)
    .from(subsections)
    .where(and(inArray(subsections.chapterId, [...chapterIds]), isNull(subsections.deletedAt)))
    .orderBy(asc(subsections.chapterId), asc(subsections.order), asc(subsections.id));
  for (const row of rows) groups.get(row.chapterId)?.push(row);
  return groups;
}

function levelFilter(levels: readonly Level[]) {
  const named = inArray(chapters.level, [...levels]);
  return levels.includes("Operator") ? sql`(${named} or ${chapters.level} is null)` : named;
}
