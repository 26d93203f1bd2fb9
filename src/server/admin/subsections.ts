/**
 * Changing subsections from the admin panel: create (slug from the title, order after the last),
 * update (also moving to another chapter), soft-delete, restore within 24 hours, reorder within
 * a chapter. A slug is unique among a chapter's live subsections: a clash is 409 "duplicate slug",
 * the words the panel looks for (SPEC.md section 8).
 */
import { and, asc, count, desc, eq, getTableColumns, gte, isNotNull, isNull, lte, ne, sql } from "../db/orm.ts";
import { subsectionInput, type SubsectionInput } from "../../lib/content-schemas.ts";
import { slugify } from "../../lib/slug.ts";
import { lockList, positions } from "../db/ordering.ts";
import { retryOnConflict } from "../db/retry.ts";
import type { Database } from "../db/types.ts";
import { chapters, subsections, type SubsectionRow } from "../db/schema.ts";
import { badRequest, conflict, HttpError, notFound } from "../http/errors.ts";
import { parseWith } from "../http/request.ts";
import { RESTORE_WINDOW_MS, type SaveContext } from "./chapters.ts";
import { keepRevision } from "./revisions.ts";
import { isUniqueViolation } from "./unique-violation.ts";

const { deletedAt: _deletedAt, ...liveColumns } = getTableColumns(subsections);

/**
 * 409 `slug_taken`, in one sentence naming the subsection that holds the slug (when known), with
 * the words "duplicate slug" the panel looks for on create (SPEC.md section 8).
 */
function duplicateSlug(slug: string, holder: string | null, restoring = false): HttpError {
  const who = holder === null ? "Another subsection of this chapter" : `The subsection "${holder}" of this chapter`;
  return new HttpError(
    409,
    "slug_taken",
    restoring
      ? `${who} now has the slug "${slug}" (a duplicate slug); give it another slug, then restore this one`
      : `${who} already has the slug "${slug}" (a duplicate slug); choose another slug`,
  );
}

async function requireLiveChapter(db: Database, chapterId: number): Promise<{ id: number; title: string }> {
  const [chapter] = await db
    .select({ id: chapters.id, title: chapters.title })
    .from(chapters)
    .where(and(eq(chapters.id, chapterId), isNull(chapters.deletedAt)));
  if (!chapter) throw notFound(`No chapter has the id ${chapterId}. It may have been deleted; reload the list.`);
  return chapter;
}

async function assertSlugFree(db: Database, chapterId: number, slug: string, exceptId?: number, restoring = false): Promise<void> {
  const [row] = await db
    .select({ title: subsections.title })
    .from(subsections)
    .where(
      and(
        eq(subsections.chapterId, chapterId),
        eq(subsections.slug, slug),
        isNull(subsections.deletedAt),
        exceptId ? ne(subsections.id, exceptId) : undefined,
      ),
    );
  if (row) throw duplicateSlug(slug, row.title, restoring);
}

async function guardSlug<T>(slug: string, write: () => Promise<T>, restoring = false): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateSlug(slug, null, restoring);
    throw error;
  }
}

const photoOf = (photo: string | null | undefined) => (photo ? photo.trim() : null);
const altOf = (alt: string | null | undefined) => (alt?.trim() ? alt.trim() : null);

/** The slug a title gives, or "section" for a title with no letters or digits. */
const slugFor = (title: string) => slugify(title) || "section";

/** A subsection as the admin panel sees it: with its status, pending draft and schedule. */
export type AdminSubsectionRow = Omit<SubsectionRow, "deletedAt">;

export async function createSubsection(db: Database, input: SubsectionInput, { now, by, draft = false, publishAt = null }: SaveContext): Promise<AdminSubsectionRow> {
  await requireLiveChapter(db, input.chapterId);
  const slug = input.slug || slugFor(input.title);
  await assertSlugFree(db, input.chapterId, slug);
  let order = input.order;
  if (order === undefined) {
    const [row] = await db
      .select({ n: count() })
      .from(subsections)
      .where(and(eq(subsections.chapterId, input.chapterId), isNull(subsections.deletedAt)));
    order = row!.n;
  }
  const [row] = await guardSlug(slug, () =>
    db
      .insert(subsections)
      .values({
        chapterId: input.chapterId,
        slug,
        title: input.title,
        content: input.content,
        photo: photoOf(input.photo),
        photoAlt: altOf(input.photoAlt),
        order,
        status: draft ? "draft" : "published",
        updatedBy: by,
        publishAt: draft ? publishAt : null,
        createdAt: now,
        updatedAt: now,
      })
      .returning(liveColumns),
  );
  return row!;
}

/** Locks a live subsection for a save; 404 if none (or, with `due`, none due to be published). */
export async function lockSubsection(tx: Database, id: number, due?: Date): Promise<SubsectionRow> {
  const [row] = await tx
    .select()
    .from(subsections)
    .where(and(eq(subsections.id, id), isNull(subsections.deletedAt), due ? lte(subsections.publishAt, due) : undefined))
    .for("update");
  if (!row) throw notFound(`No subsection has the id ${id}. It may have been deleted; reload the list.`);
  return row;
}

/**
 * The fields a subsection row or a kept version holds, as the form would send them; checked as a
 * save is, so a kept version or draft holding what a save now refuses (such as a photo address
 * with an encoded `..`, issue 21: 5) is a 400 naming the field, never written back.
 */
export function subsectionInputOf(fields: Record<string, unknown>): SubsectionInput {
  return parseWith(subsectionInput, fields);
}

/**
 * Writes `input` over a locked subsection, keeping the version it replaces as a revision; an
 * absent slug or order keeps the current one (links stay stable). The pending draft goes unless
 * `keepDraft`.
 */
export async function writeSubsection(
  tx: Database,
  current: SubsectionRow,
  input: SubsectionInput,
  { now, by, status, publishAt, keepDraft = false }: { now: Date; by: string | null; status: "published" | "draft"; publishAt: Date | null; keepDraft?: boolean },
): Promise<AdminSubsectionRow> {
  await requireLiveChapter(tx, input.chapterId);
  const slug = input.slug || current.slug;
  await assertSlugFree(tx, input.chapterId, slug, current.id);
  await keepRevision(tx, "subsection", current, { now, by });
  const [row] = await guardSlug(slug, () =>
    tx
      .update(subsections)
      .set({
        chapterId: input.chapterId,
        slug,
        title: input.title,
        content: input.content,
        photo: photoOf(input.photo),
        ...(input.photoAlt !== undefined ? { photoAlt: altOf(input.photoAlt) } : {}),
        order: input.order ?? current.order,
        status,
        updatedBy: by,
        updatedAt: now,
        publishAt,
        ...(keepDraft ? {} : { draft: null, draftSavedAt: null, draftSavedBy: null }),
      })
      .where(eq(subsections.id, current.id))
      .returning(liveColumns),
  );
  return row!;
}

/**
 * Saves a subsection: published, or as a draft (a published subsection then keeps its live text
 * and holds the fields as its pending draft), as updateChapter does.
 */
export async function updateSubsection(db: Database, id: number, input: SubsectionInput, { now, by, draft = false, publishAt = null }: SaveContext): Promise<AdminSubsectionRow> {
  return db.transaction(async (tx) => {
    const current = await lockSubsection(tx as unknown as Database, id);
    if (draft && current.status === "published") {
      await requireLiveChapter(tx as unknown as Database, input.chapterId);
      await assertSlugFree(tx as unknown as Database, input.chapterId, input.slug || current.slug, id);
      const [row] = await tx
        .update(subsections)
        .set({ draft: input, draftSavedAt: now, draftSavedBy: by, publishAt })
        .where(eq(subsections.id, id))
        .returning(liveColumns);
      return row!;
    }
    return writeSubsection(tx as unknown as Database, current, input, { now, by, status: draft ? "draft" : "published", publishAt: draft ? publishAt : null });
  });
}

/** Soft-deletes a subsection; answers its chapter's id. */
export async function deleteSubsection(db: Database, id: number, now = new Date()): Promise<number> {
  const [row] = await db
    .update(subsections)
    .set({ deletedAt: now })
    .where(and(eq(subsections.id, id), isNull(subsections.deletedAt)))
    .returning({ chapterId: subsections.chapterId });
  if (!row) throw notFound(`No subsection has the id ${id}. It may have been deleted already; reload the list.`);
  return row.chapterId;
}

/**
 * Restores a subsection deleted within the last 24 hours. 409 after that, while its chapter is
 * deleted (restore the chapter first), or when a live subsection of the chapter took its slug.
 */
export async function restoreSubsection(db: Database, id: number, now = new Date()): Promise<AdminSubsectionRow> {
  return db.transaction(async (tx) => {
    const [deleted] = await tx
      .select({ subsection: subsections, chapterDeletedAt: chapters.deletedAt, chapterTitle: chapters.title })
      .from(subsections)
      .innerJoin(chapters, eq(chapters.id, subsections.chapterId))
      .where(and(eq(subsections.id, id), isNotNull(subsections.deletedAt)));
    if (!deleted) throw notFound(`No deleted subsection has the id ${id}. It may have been restored already; reload the list.`);
    const { subsection } = deleted;
    if (now.getTime() - subsection.deletedAt!.getTime() > RESTORE_WINDOW_MS) {
      throw conflict(`"${subsection.title}" was deleted more than 24 hours ago, so it can no longer be restored. Create it again instead.`);
    }
    if (deleted.chapterDeletedAt) {
      throw conflict(`Its chapter "${deleted.chapterTitle}" is deleted. Restore the chapter first; it brings back the subsections deleted with it.`);
    }
    await assertSlugFree(tx as unknown as Database, subsection.chapterId, subsection.slug, undefined, true);
    const [row] = await guardSlug(
      subsection.slug,
      () => tx.update(subsections).set({ deletedAt: null, updatedAt: now }).where(eq(subsections.id, id)).returning(liveColumns),
      true,
    );
    return row!;
  });
}

export type DeletedSubsection = SubsectionRow & { chapterTitle: string };

/** Subsections deleted within the restore window, newest first, with their chapter's title. */
export async function recentlyDeletedSubsections(db: Database, now = new Date()): Promise<DeletedSubsection[]> {
  const rows = await db
    .select({ subsection: subsections, chapterTitle: chapters.title })
    .from(subsections)
    .innerJoin(chapters, eq(chapters.id, subsections.chapterId))
    .where(and(isNotNull(subsections.deletedAt), gte(subsections.deletedAt, new Date(now.getTime() - RESTORE_WINDOW_MS))))
    .orderBy(desc(subsections.deletedAt), desc(subsections.id));
  return rows.map((row) => ({ ...row.subsection, chapterTitle: row.chapterTitle }));
}

/**
 * Writes the order of one chapter's subsections (0..n-1, so a new one's default order, the count,
 * comes after them) in one transaction. `ids` must be exactly the chapter's live subsections.
 */
export async function reorderSubsections(db: Database, chapterId: number, ids: number[], now = new Date()): Promise<void> {
  await retryOnConflict(() => db.transaction(async (tx) => {
    await lockList(tx, `subsections of chapter ${chapterId}`);
    await requireLiveChapter(tx as unknown as Database, chapterId);
    const duplicates = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
    if (duplicates.length > 0) throw badRequest(`subsectionIds: ${list(duplicates)} appear more than once.`);
    const live = await tx
      .select({ id: subsections.id })
      .from(subsections)
      .where(and(eq(subsections.chapterId, chapterId), isNull(subsections.deletedAt)))
      .orderBy(asc(subsections.order));
    const liveIds = new Set(live.map((row) => row.id));
    const foreign = ids.filter((id) => !liveIds.has(id));
    if (foreign.length > 0) {
      throw badRequest(`subsectionIds: ${list(foreign)} ${foreign.length === 1 ? "is" : "are"} not a live subsection of chapter ${chapterId}; reload the list.`);
    }
    const missing = [...liveIds].filter((id) => !ids.includes(id));
    if (missing.length > 0) {
      throw badRequest(`subsectionIds: the list must hold every live subsection of chapter ${chapterId}; ${list(missing)} ${missing.length === 1 ? "is" : "are"} missing. Reload the list.`);
    }
    await tx.execute(sql`
      UPDATE ${subsections} SET "order" = v.position, "updated_at" = ${now}
      FROM (VALUES ${positions(ids, 0)}) AS v(id, position)
      WHERE ${subsections.id} = v.id AND ${subsections.chapterId} = ${chapterId}`);
  }));
}

const list = (ids: number[]) => (ids.length === 1 ? `id ${ids[0]}` : `ids ${ids.join(", ")}`);

/** Every live subsection of a chapter, drafts too, in order (the admin panel's list). */
export async function listAdminSubsections(db: Database, chapterId: number): Promise<AdminSubsectionRow[]> {
  await requireLiveChapter(db, chapterId);
  return db
    .select(liveColumns)
    .from(subsections)
    .where(and(eq(subsections.chapterId, chapterId), isNull(subsections.deletedAt)))
    .orderBy(asc(subsections.order), asc(subsections.id));
}
