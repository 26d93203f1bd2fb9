/**
 * Changing chapters from the admin panel: create, update, soft-delete (with the chapter's live
 * subsections, stamped with the same deletedAt), restore within 24 hours (bringing back exactly
 * the subsections deleted with it), reorder within a level. Every multi-row change is one
 * transaction. `now` is a parameter so tests can move the clock.
 */
import { and, asc, desc, eq, getTableColumns, gte, inArray, isNotNull, isNull, lte, ne, sql } from "../db/orm.ts";
import { chapterInput, type ChapterInput } from "../../lib/content-schemas.ts";
import { levelOf, type Level } from "../../lib/levels.ts";
import { lockList, positions } from "../db/ordering.ts";
import { retryOnConflict } from "../db/retry.ts";
import type { Database } from "../db/types.ts";
import { chapters, subsections, type ChapterRow } from "../db/schema.ts";
import { badRequest, conflict, HttpError, notFound } from "../http/errors.ts";
import { levelRank } from "../repositories/chapters.ts";
import { keepRevision } from "./revisions.ts";
import { isUniqueViolation } from "./unique-violation.ts";

export const RESTORE_WINDOW_MS = 24 * 3600 * 1000;

const { deletedAt: _deletedAt, ...liveColumns } = getTableColumns(chapters);

/** Every live chapter, drafts too, with its content: Operator, Architect, Mastermind, each by order. */
export function listAllChapters(db: Database): Promise<AdminChapterRow[]> {
  return db.select(liveColumns).from(chapters).where(isNull(chapters.deletedAt)).orderBy(levelRank, asc(chapters.order), asc(chapters.id));
}

/**
 * 409 `slug_taken`, in one sentence naming the chapter that holds the slug (when known): the
 * panel shows it beside the Slug field. Restoring, the way out is to rename the other chapter.
 */
function slugTaken(slug: string, holder: string | null, restoring = false): HttpError {
  const who = holder === null ? "Another chapter" : `The chapter "${holder}"`;
  return new HttpError(
    409,
    "slug_taken",
    restoring ? `${who} now has the slug "${slug}"; give it another slug, then restore this one` : `${who} already has the slug "${slug}"; choose another slug`,
  );
}

async function assertSlugFree(db: Database, slug: string, exceptId?: number, restoring = false): Promise<void> {
  const [row] = await db
    .select({ title: chapters.title })
    .from(chapters)
    .where(and(eq(chapters.slug, slug), isNull(chapters.deletedAt), exceptId ? ne(chapters.id, exceptId) : undefined));
  if (row) throw slugTaken(slug, row.title, restoring);
}

/** Runs a write, turning a unique violation on the slug (a race past the check) into the same 409. */
async function guardSlug<T>(slug: string, write: () => Promise<T>, restoring = false): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw slugTaken(slug, null, restoring);
    throw error;
  }
}

/** How a save is made (issue 14): when, by which admin, as a draft or published, scheduled or not. */
export interface SaveContext {
  now: Date;
  by: string | null;
  draft?: boolean;
  publishAt?: Date | null;
}

/** A chapter as the admin panel sees it: with its status, pending draft and schedule. */
export type AdminChapterRow = Omit<ChapterRow, "deletedAt">;

export async function createChapter(db: Database, input: ChapterInput, { now, by, draft = false, publishAt = null }: SaveContext): Promise<AdminChapterRow> {
  await assertSlugFree(db, input.slug);
  const [row] = await guardSlug(input.slug, () =>
    db
      .insert(chapters)
      .values({ ...input, status: draft ? "draft" : "published", updatedBy: by, publishAt: draft ? publishAt : null, createdAt: now, updatedAt: now })
      .returning(liveColumns),
  );
  return row!;
}

/** Locks a live chapter for a save (its revision is then the version the save replaces); 404 if none. */
export async function lockChapter(tx: Database, id: number, due?: Date): Promise<ChapterRow> {
  const [row] = await tx
    .select()
    .from(chapters)
    .where(and(eq(chapters.id, id), isNull(chapters.deletedAt), due ? lte(chapters.publishAt, due) : undefined))
    .for("update");
  if (!row) throw notFound(`No chapter has the id ${id}. It may have been deleted; reload the list.`);
  return row;
}

/** The fields a chapter row or a kept version holds, as the form would send them. */
export function chapterInputOf(fields: Record<string, unknown>): ChapterInput {
  return chapterInput.parse({ ...fields, level: fields.level ?? "Operator" });
}

/**
 * Writes `input` over a locked chapter, keeping the version it replaces as a revision. The pending
 * draft goes unless `keepDraft` (a restored revision leaves a draft in progress alone).
 */
export async function writeChapter(
  tx: Database,
  current: ChapterRow,
  input: ChapterInput,
  { now, by, status, publishAt, keepDraft = false }: { now: Date; by: string | null; status: "published" | "draft"; publishAt: Date | null; keepDraft?: boolean },
): Promise<AdminChapterRow> {
  await assertSlugFree(tx, input.slug, current.id);
  await keepRevision(tx, "chapter", current, { now, by });
  const [row] = await guardSlug(input.slug, () =>
    tx
      .update(chapters)
      .set({
        ...input,
        status,
        updatedBy: by,
        updatedAt: now,
        publishAt,
        ...(keepDraft ? {} : { draft: null, draftSavedAt: null, draftSavedBy: null }),
      })
      .where(eq(chapters.id, current.id))
      .returning(liveColumns),
  );
  return row!;
}

/**
 * Saves a chapter. Published (no `draft`): the fields go live, replacing any pending draft. As a
 * draft: a draft chapter stays one; a published chapter keeps its live text and holds the fields
 * as its pending draft (no revision: the live version is not replaced).
 */
export async function updateChapter(db: Database, id: number, input: ChapterInput, { now, by, draft = false, publishAt = null }: SaveContext): Promise<AdminChapterRow> {
  return db.transaction(async (tx) => {
    const current = await lockChapter(tx as unknown as Database, id);
    if (draft && current.status === "published") {
      await assertSlugFree(tx as unknown as Database, input.slug, id);
      const [row] = await tx
        .update(chapters)
        .set({ draft: input, draftSavedAt: now, draftSavedBy: by, publishAt })
        .where(eq(chapters.id, id))
        .returning(liveColumns);
      return row!;
    }
    return writeChapter(tx as unknown as Database, current, input, { now, by, status: draft ? "draft" : "published", publishAt: draft ? publishAt : null });
  });
}

/** Soft-deletes a chapter and its live subsections, all with the same deletedAt. */
export async function deleteChapter(db: Database, id: number, now = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(chapters)
      .set({ deletedAt: now })
      .where(and(eq(chapters.id, id), isNull(chapters.deletedAt)))
      .returning({ id: chapters.id });
    if (!row) throw notFound(`No chapter has the id ${id}. It may have been deleted already; reload the list.`);
    await tx
      .update(subsections)
      .set({ deletedAt: now })
      .where(and(eq(subsections.chapterId, id), isNull(subsections.deletedAt)));
  });
}

/**
 * Restores a chapter deleted within the last 24 hours, with the subsections deleted together
 * with it (same deletedAt); subsections deleted on their own before stay deleted. 409 after 24
 * hours, or when a live chapter has taken its slug.
 */
export async function restoreChapter(db: Database, id: number, now = new Date()): Promise<AdminChapterRow> {
  return db.transaction(async (tx) => {
    const [deleted] = await tx
      .select()
      .from(chapters)
      .where(and(eq(chapters.id, id), isNotNull(chapters.deletedAt)));
    if (!deleted) throw notFound(`No deleted chapter has the id ${id}. It may have been restored already; reload the list.`);
    const deletedAt = deleted.deletedAt!;
    if (now.getTime() - deletedAt.getTime() > RESTORE_WINDOW_MS) {
      throw conflict(
        `"${deleted.title}" was deleted more than 24 hours ago, so it can no longer be restored. Create it again instead.`,
      );
    }
    await assertSlugFree(tx as unknown as Database, deleted.slug, undefined, true);
    const [row] = await guardSlug(
      deleted.slug,
      () =>
        tx
          .update(chapters)
          .set({ deletedAt: null, updatedAt: now })
          .where(eq(chapters.id, id))
          .returning(liveColumns),
      true,
    );
    await tx
      .update(subsections)
      .set({ deletedAt: null, updatedAt: now })
      .where(and(eq(subsections.chapterId, id), eq(subsections.deletedAt, deletedAt)));
    return row!;
  });
}

/** Chapters deleted within the restore window, newest first. */
export async function recentlyDeletedChapters(db: Database, now = new Date()): Promise<ChapterRow[]> {
  return db
    .select()
    .from(chapters)
    .where(and(isNotNull(chapters.deletedAt), gte(chapters.deletedAt, new Date(now.getTime() - RESTORE_WINDOW_MS))))
    .orderBy(desc(chapters.deletedAt), desc(chapters.id));
}

/**
 * Writes the order of one level's chapters (1..n) in one transaction. `ids` must be exactly the
 * live chapters of one level, each once; otherwise 400 naming what is wrong. Reorders of chapters
 * take one lock, so two at once run one after the other (the last one's order stands), and the
 * order is written by one statement.
 */
export async function reorderChapters(db: Database, ids: number[], now = new Date()): Promise<Level> {
  return retryOnConflict(() => db.transaction(async (tx) => {
    await lockList(tx, "chapters");
    const duplicates = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
    if (duplicates.length > 0) throw badRequest(`chapterIds: ${list(duplicates)} appear more than once.`);
    const named = await tx
      .select({ id: chapters.id, level: chapters.level })
      .from(chapters)
      .where(and(inArray(chapters.id, ids), isNull(chapters.deletedAt)));
    const found = new Set(named.map((row) => row.id));
    const unknown = ids.filter((id) => !found.has(id));
    if (unknown.length > 0) throw badRequest(`chapterIds: ${list(unknown)} ${unknown.length === 1 ? "is" : "are"} not a live chapter; reload the list.`);
    const levels = [...new Set(named.map((row) => levelOf(row.level)))];
    if (levels.length > 1) throw badRequest(`chapterIds: a reorder covers one level, but these chapters are ${levels.join(" and ")}.`);
    const level = levels[0]!;
    const all = await tx
      .select({ id: chapters.id })
      .from(chapters)
      .where(and(isNull(chapters.deletedAt), level === "Operator" ? sql`coalesce(${chapters.level}, 'Operator') = 'Operator'` : eq(chapters.level, level)))
      .orderBy(asc(chapters.order));
    const missing = all.map((row) => row.id).filter((id) => !found.has(id));
    if (missing.length > 0) {
      throw badRequest(`chapterIds: the list must hold every live ${level} chapter; ${list(missing)} ${missing.length === 1 ? "is" : "are"} missing. Reload the list.`);
    }
    await tx.execute(sql`
      UPDATE ${chapters} SET "order" = v.position, "updated_at" = ${now}
      FROM (VALUES ${positions(ids, 1)}) AS v(id, position)
      WHERE ${chapters.id} = v.id`);
    return level;
  }));
}

const list = (ids: number[]) => (ids.length === 1 ? `id ${ids[0]}` : `ids ${ids.join(", ")}`);
