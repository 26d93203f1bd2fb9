/**
 * Revisions of chapters and subsections (issue 14): every save keeps the version it replaces, with
 * every field, who saved it and when, written by the save's own transaction. Soft deletes and
 * restores leave revisions alone. Kept for 90 days, and the last 50 of an item are kept whatever
 * their age: pruning removes a revision only when it is both older than 90 days and not among its
 * item's 50 newest (at each save of that item, and for every item in the retention job).
 */
import { desc, eq, sql } from "../db/orm.ts";
import type { Database } from "../db/types.ts";
import { contentRevisions, type ChapterRow, type SubsectionRow } from "../db/schema.ts";

export type ItemKind = "chapter" | "subsection";

export const REVISIONS_KEPT_PER_ITEM = 50;
export const REVISIONS_KEPT_DAYS = 90;
const DAY_MS = 24 * 3600 * 1000;

/** Every field of a chapter version, as kept in a revision. */
export interface ChapterFields {
  slug: string;
  title: string;
  content: string;
  readingTime: number;
  order: number;
  level: string | null;
  /** A locked chapter's teaser (issue 15); absent in revisions kept before it existed. */
  teaser?: string | null;
  status: string;
}

/** Every field of a subsection version, as kept in a revision. */
export interface SubsectionFields {
  chapterId: number;
  slug: string;
  title: string;
  content: string;
  photo: string | null;
  photoAlt: string | null;
  order: number;
  status: string;
}

export function chapterFields(row: ChapterRow): ChapterFields {
  const { slug, title, content, readingTime, order, level, teaser, status } = row;
  return { slug, title, content, readingTime, order, level, teaser, status };
}

export function subsectionFields(row: SubsectionRow): SubsectionFields {
  const { chapterId, slug, title, content, photo, photoAlt, order, status } = row;
  return { chapterId, slug, title, content, photo, photoAlt, order, status };
}

export interface Revision {
  id: number;
  kind: ItemKind;
  itemId: number;
  fields: ChapterFields | SubsectionFields;
  /** When this version was saved, and by whom (null: before revisions were kept, or the seed). */
  savedAt: Date;
  savedBy: string | null;
  /** When a later save replaced it, and by whom. */
  replacedAt: Date;
  replacedBy: string | null;
}

const itemColumn = (kind: ItemKind) => (kind === "chapter" ? contentRevisions.chapterId : contentRevisions.subsectionId);

/**
 * Keeps `row`, the version a save is about to replace. Call inside the save's transaction, with
 * the row locked (SELECT ... FOR UPDATE), so two saves at once each keep what they replace.
 */
export async function keepRevision(
  tx: Database,
  kind: ItemKind,
  row: ChapterRow | SubsectionRow,
  { now, by }: { now: Date; by: string | null },
): Promise<void> {
  const fields = kind === "chapter" ? chapterFields(row as ChapterRow) : subsectionFields(row as SubsectionRow);
  await tx.insert(contentRevisions).values({
    chapterId: kind === "chapter" ? row.id : null,
    subsectionId: kind === "subsection" ? row.id : null,
    fields,
    savedAt: row.updatedAt,
    savedBy: row.updatedBy,
    replacedAt: now,
    replacedBy: by,
  });
  await pruneRevisions(tx, now, { kind, itemId: row.id });
}

/** An item's revisions, newest first. */
export async function listRevisions(db: Database, kind: ItemKind, itemId: number): Promise<Revision[]> {
  const rows = await db
    .select()
    .from(contentRevisions)
    .where(eq(itemColumn(kind), itemId))
    .orderBy(desc(contentRevisions.replacedAt), desc(contentRevisions.id));
  return rows.map(toRevision);
}

export async function getRevision(db: Database, id: number): Promise<Revision | undefined> {
  const [row] = await db.select().from(contentRevisions).where(eq(contentRevisions.id, id));
  return row ? toRevision(row) : undefined;
}

function toRevision(row: typeof contentRevisions.$inferSelect): Revision {
  const kind: ItemKind = row.chapterId !== null ? "chapter" : "subsection";
  return {
    id: row.id,
    kind,
    itemId: (row.chapterId ?? row.subsectionId)!,
    fields: row.fields as ChapterFields | SubsectionFields,
    savedAt: row.savedAt,
    savedBy: row.savedBy,
    replacedAt: row.replacedAt,
    replacedBy: row.replacedBy,
  };
}

/**
 * Removes revisions older than 90 days that are not among their item's 50 newest; one item's
 * (at a save) or every item's (the retention job). Answers how many went.
 */
export async function pruneRevisions(db: Database, now: Date, item?: { kind: ItemKind; itemId: number }): Promise<number> {
  const cutoff = new Date(now.getTime() - REVISIONS_KEPT_DAYS * DAY_MS);
  const scope = item ? sql`AND ${itemColumn(item.kind)} = ${item.itemId}` : sql``;
  const removed = (await db.execute(sql`
    DELETE FROM ${contentRevisions} r
    USING (
      SELECT id, row_number() OVER (PARTITION BY chapter_id, subsection_id ORDER BY replaced_at DESC, id DESC) AS newest
      FROM ${contentRevisions} WHERE true ${scope}
    ) ranked
    WHERE r.id = ranked.id AND ranked.newest > ${REVISIONS_KEPT_PER_ITEM} AND r.replaced_at < ${cutoff}
    RETURNING r.id`)) as unknown as { rows: unknown[] };
  return removed.rows.length;
}
