/**
 * Publishing drafts, by hand or at a scheduled time, discarding a pending draft, and restoring a
 * revision (issue 14), for chapters and subsections alike. Each is one transaction with the item
 * locked; publishing and restoring write through the same path as a save, so the version they
 * replace is kept as a revision. The caller publishes the change (src/server/publish) as it does
 * after an edit.
 */
import { and, eq, isNotNull, isNull, lte, or, sql } from "../db/orm.ts";
import type { Database } from "../db/types.ts";
import { chapters, subsections, type ChapterRow, type SubsectionRow } from "../db/schema.ts";
import { badRequest, conflict, notFound } from "../http/errors.ts";
import { chapterInputOf, lockChapter, writeChapter, type AdminChapterRow } from "./chapters.ts";
import { getRevision, type ItemKind } from "./revisions.ts";
import { lockSubsection, subsectionInputOf, writeSubsection, type AdminSubsectionRow } from "./subsections.ts";

type Row = ChapterRow | SubsectionRow;
type AdminRow = AdminChapterRow | AdminSubsectionRow;
interface WriteOptions {
  now: Date;
  by: string | null;
  status: "published" | "draft";
  publishAt: Date | null;
  keepDraft?: boolean;
}

/** What differs between chapters and subsections. */
interface Kind {
  table: typeof chapters | typeof subsections;
  noun: string;
  lock(tx: Database, id: number, due?: Date): Promise<Row>;
  write(tx: Database, current: Row, fields: Record<string, unknown>, options: WriteOptions): Promise<AdminRow>;
}

const KINDS: Record<ItemKind, Kind> = {
  chapter: {
    table: chapters,
    noun: "chapter",
    lock: lockChapter,
    write: (tx, current, fields, options) => writeChapter(tx, current as ChapterRow, chapterInputOf(fields), options),
  },
  subsection: {
    table: subsections,
    noun: "subsection",
    lock: lockSubsection,
    write: (tx, current, fields, options) => writeSubsection(tx, current as SubsectionRow, subsectionInputOf(fields), options),
  },
};

const within = <T>(db: Database, work: (tx: Database) => Promise<T>): Promise<T> =>
  db.transaction((tx) => work(tx as unknown as Database));

/**
 * Publishes a draft item, or a published item's pending draft (which then replaces its live text).
 * 409 when there is nothing to publish. `due`: only if its scheduled time has come (the job).
 */
export async function publishItem(db: Database, kind: ItemKind, id: number, { now, by }: { now: Date; by: string | null }): Promise<AdminRow> {
  return within(db, async (tx) => {
    const current = await KINDS[kind].lock(tx, id);
    return publishLocked(tx, kind, current, { now, by });
  });
}

async function publishLocked(tx: Database, kind: ItemKind, current: Row, { now, by }: { now: Date; by: string | null }): Promise<AdminRow> {
  const { write, noun } = KINDS[kind];
  const options: WriteOptions = { now, by: current.draftSavedBy ?? by, status: "published", publishAt: null };
  if (current.draft) return write(tx, current, current.draft as Record<string, unknown>, options);
  if (current.status === "draft") return write(tx, current, current as unknown as Record<string, unknown>, { ...options, by: current.updatedBy ?? by });
  throw conflict(`This ${noun} is published and has no draft waiting, so there is nothing to publish.`);
}

/** Drops a published item's pending draft (and its schedule); its live text stays as it is. */
export async function discardDraft(db: Database, kind: ItemKind, id: number): Promise<AdminRow> {
  const { table, noun } = KINDS[kind];
  const [row] = (await db
    .update(table)
    .set({ draft: null, draftSavedAt: null, draftSavedBy: null, publishAt: null })
    .where(and(eq(table.id, id), isNull(table.deletedAt), isNotNull(table.draft)))
    .returning()) as Row[];
  if (!row) throw notFound(`This ${noun} has no pending draft to discard (id ${id}); reload the list.`);
  return row;
}

/**
 * Sets (or, with null, clears) when a draft item or a pending draft is published. 400 for a time
 * in the past, 409 when the item has no draft.
 */
export async function scheduleDraft(db: Database, kind: ItemKind, id: number, publishAt: Date | null, now: Date): Promise<AdminRow> {
  const { table, noun } = KINDS[kind];
  if (publishAt && publishAt.getTime() <= now.getTime()) throw badRequest("publishAt: choose a time in the future, or publish now.");
  return within(db, async (tx) => {
    await KINDS[kind].lock(tx, id);
    const [row] = (await tx
      .update(table)
      .set({ publishAt })
      .where(and(eq(table.id, id), or(eq(table.status, "draft"), isNotNull(table.draft))))
      .returning()) as Row[];
    if (!row) throw conflict(`This ${noun} is published and has no draft waiting, so there is nothing to schedule.`);
    return row;
  });
}

/**
 * Writes a kept version's words back over its item, as a save by `by` (so the version it replaces
 * is kept in turn). The item keeps its address (slug), its place (order; a subsection its
 * chapter), its status and any pending draft. 404 when the item is deleted (restore it first).
 */
export async function restoreRevision(db: Database, revisionId: number, { now, by }: { now: Date; by: string | null }): Promise<{ kind: ItemKind; item: AdminRow }> {
  const revision = await getRevision(db, revisionId);
  if (!revision) throw notFound(`No revision has the id ${revisionId}. It may have been pruned; reload the history.`);
  const { kind, itemId } = revision;
  const item = await within(db, async (tx) => {
    const current = await KINDS[kind].lock(tx, itemId);
    // The words come back (title, text, photo, level, teaser); the address and the place stay:
    // a restore never moves the item's public address, its position, or (a subsection) its chapter.
    const { slug, order } = current;
    const place = kind === "subsection" ? { slug, order, chapterId: (current as { chapterId: number }).chapterId } : { slug, order };
    return KINDS[kind].write(tx, current, { ...(revision.fields as unknown as Record<string, unknown>), ...place }, {
      now,
      by,
      status: current.status as "published" | "draft",
      publishAt: current.publishAt,
      keepDraft: true,
    });
  });
  return { kind, item };
}

export interface DuePublishing {
  published: Array<{ kind: ItemKind; id: number }>;
  failed: string[];
}

/**
 * Publishes every draft whose scheduled time has come (the scheduled job). Each item is claimed
 * by locking its row only while still due, so two runs at once publish it once: the second waits
 * for the first's commit, then finds it no longer due.
 */
export async function publishDue(db: Database, now: Date): Promise<DuePublishing> {
  const result: DuePublishing = { published: [], failed: [] };
  for (const kind of ["chapter", "subsection"] as const) {
    const { table, lock, noun } = KINDS[kind];
    const due = await db
      .select({ id: table.id })
      .from(table)
      .where(and(isNull(table.deletedAt), lte(table.publishAt, now)))
      .orderBy(sql`${table.publishAt}`, table.id);
    for (const { id } of due) {
      try {
        const published = await within(db, async (tx) => {
          let current: Row;
          try {
            current = await lock(tx, id, now);
          } catch {
            return false; // published (or deleted) by another run meanwhile
          }
          await publishLocked(tx, kind, current, { now, by: null });
          return true;
        });
        if (published) result.published.push({ kind, id });
      } catch (error) {
        result.failed.push(`${noun} ${id}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
  return result;
}
