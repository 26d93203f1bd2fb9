/**
 * What a chapter page shows, for the admin's preview (issue 14): the live version (what readers
 * get now) or the draft version (a draft chapter, a pending draft applied, draft subsections in),
 * shaped as the reader page's data (src/server/repositories/chapters.ts: ChapterPageData), so
 * the preview renders through the very same shell. Nothing is written.
 */
import { and, asc, eq, isNull, sql } from "../db/orm.ts";
import type { Database } from "../db/types.ts";
import { chapters, subsections, type ChapterRow, type SubsectionRow } from "../db/schema.ts";
import { notFound } from "../http/errors.ts";
import type { ChapterPageData } from "../repositories/chapters.ts";

export type PreviewVersion = "live" | "draft";

/** A row with its pending draft's fields laid over it (the draft version), or as it is. */
function withDraft<T extends ChapterRow | SubsectionRow>(row: T, version: PreviewVersion): T {
  if (version === "live" || !row.draft) return row;
  const draft = row.draft as Record<string, unknown>;
  const defined = Object.fromEntries(Object.entries(draft).filter(([key, value]) => value !== undefined && key !== "chapterId" && !(key === "slug" && !value)));
  return { ...row, ...defined };
}

export interface ChapterPreview {
  data: ChapterPageData;
  /** The chapter as previewed is not what readers get now (a draft, or a pending draft shown). */
  unpublished: boolean;
  status: string;
}

export async function chapterPreview(db: Database, id: number, version: PreviewVersion): Promise<ChapterPreview> {
  const [row] = await db
    .select()
    .from(chapters)
    .where(and(eq(chapters.id, id), isNull(chapters.deletedAt)));
  if (!row) throw notFound(`No chapter has the id ${id}. It may have been deleted; reload the list.`);
  if (version === "live" && row.status !== "published") {
    throw notFound(`"${row.title}" is a draft: readers get nothing yet. Preview its draft instead.`);
  }
  const chapter = withDraft(row, version);
  const parts = await db
    .select()
    .from(subsections)
    .where(and(eq(subsections.chapterId, id), isNull(subsections.deletedAt)))
    .orderBy(asc(subsections.order), asc(subsections.id));
  const shown = parts.filter((part) => version === "draft" || part.status === "published").map((part) => withDraft(part, version));
  const level = chapter.level ?? "Operator";
  const levelChapters = await db
    .select({ slug: chapters.slug, title: chapters.title, id: chapters.id, order: chapters.order })
    .from(chapters)
    .where(and(isNull(chapters.deletedAt), eq(chapters.status, "published"), sql`coalesce(${chapters.level}, 'Operator') = ${level}`))
    .orderBy(asc(chapters.order), asc(chapters.id));
  // A draft chapter takes its place by order among the published ones, as it will once published.
  const list = levelChapters.filter((c) => c.id !== id);
  const at = list.findIndex((c) => c.order > chapter.order || (c.order === chapter.order && c.id > id));
  list.splice(at < 0 ? list.length : at, 0, { slug: chapter.slug, title: chapter.title, id, order: chapter.order });
  const [first] = await db
    .select({ slug: chapters.slug })
    .from(chapters)
    .where(and(isNull(chapters.deletedAt), eq(chapters.status, "published"), sql`coalesce(${chapters.level}, 'Operator') = 'Operator'`))
    .orderBy(asc(chapters.order), asc(chapters.id))
    .limit(1);
  const unpublished = row.status !== "published" || (version === "draft" && (row.draft !== null || parts.some((p) => p.status !== "published" || p.draft !== null)));
  return {
    data: {
      chapter: { id, slug: chapter.slug, title: chapter.title, content: chapter.content, readingTime: chapter.readingTime, order: chapter.order, level: chapter.level, teaser: chapter.teaser, createdAt: chapter.createdAt, updatedAt: chapter.updatedAt },
      subsections: shown.map(({ id: partId, slug, title, content, photo, photoAlt, order }) => ({ id: partId, slug, title, content, photo, photoAlt, order })),
      levelChapters: list.map(({ slug, title }) => ({ slug, title })),
      firstOperatorSlug: first?.slug ?? null,
    },
    unpublished,
    status: row.status,
  };
}
