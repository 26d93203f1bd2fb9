/**
 * Changing subsections from the admin panel: create (slug from the title, order after the last),
 * update (also moving to another chapter), soft-delete, restore within 24 hours, reorder within
 * a chapter. A slug is unique among a chapter's live subsections: a clash is 409 "duplicate slug",
 * the words the panel looks for (SPEC.md section 8).
 */
import { and, asc, count, desc, eq, getTableColumns, gte, isNotNull, isNull, ne, sql } from "../db/orm.ts";
import type { SubsectionInput } from "../../lib/content-schemas.ts";
import { slugify } from "../../lib/slug.ts";
import { lockList, positions } from "../db/ordering.ts";
import { retryOnConflict } from "../db/retry.ts";
import type { Database } from "../db/types.ts";
import { chapters, subsections, type SubsectionRow } from "../db/schema.ts";
import { badRequest, conflict, notFound } from "../http/errors.ts";
import type { Subsection } from "../repositories/chapters.ts";
import { RESTORE_WINDOW_MS } from "./chapters.ts";
import { isUniqueViolation } from "./unique-violation.ts";

const { deletedAt: _deletedAt, ...liveColumns } = getTableColumns(subsections);

const duplicateSlug = (slug: string) =>
  conflict(`This chapter already has a subsection with the slug "${slug}" (duplicate slug). Use a different slug.`);

async function requireLiveChapter(db: Database, chapterId: number): Promise<{ id: number; title: string }> {
  const [chapter] = await db
    .select({ id: chapters.id, title: chapters.title })
    .from(chapters)
    .where(and(eq(chapters.id, chapterId), isNull(chapters.deletedAt)));
  if (!chapter) throw notFound(`No chapter has the id ${chapterId}. It may have been deleted; reload the list.`);
  return chapter;
}

async function assertSlugFree(db: Database, chapterId: number, slug: string, exceptId?: number): Promise<void> {
  const [row] = await db
    .select({ id: subsections.id })
    .from(subsections)
    .where(
      and(
        eq(subsections.chapterId, chapterId),
        eq(subsections.slug, slug),
        isNull(subsections.deletedAt),
        exceptId ? ne(subsections.id, exceptId) : undefined,
      ),
    );
  if (row) throw duplicateSlug(slug);
}

async function guardSlug<T>(slug: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateSlug(slug);
    throw error;
  }
}

const photoOf = (photo: string | null | undefined) => (photo ? photo.trim() : null);
const altOf = (alt: string | null | undefined) => (alt?.trim() ? alt.trim() : null);

/** The slug a title gives, or "section" for a title with no letters or digits. */
const slugFor = (title: string) => slugify(title) || "section";

export async function createSubsection(db: Database, input: SubsectionInput, now = new Date()): Promise<Subsection> {
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
        createdAt: now,
        updatedAt: now,
      })
      .returning(liveColumns),
  );
  return row!;
}

/** Updates a live subsection; an absent slug or order keeps the current one (links stay stable). */
export async function updateSubsection(db: Database, id: number, input: SubsectionInput, now = new Date()): Promise<Subsection> {
  const [current] = await db
    .select({ slug: subsections.slug, order: subsections.order })
    .from(subsections)
    .where(and(eq(subsections.id, id), isNull(subsections.deletedAt)));
  if (!current) throw notFound(`No subsection has the id ${id}. It may have been deleted; reload the list.`);
  await requireLiveChapter(db, input.chapterId);
  const slug = input.slug || current.slug;
  await assertSlugFree(db, input.chapterId, slug, id);
  const [row] = await guardSlug(slug, () =>
    db
      .update(subsections)
      .set({
        chapterId: input.chapterId,
        slug,
        title: input.title,
        content: input.content,
        photo: photoOf(input.photo),
        ...(input.photoAlt !== undefined ? { photoAlt: altOf(input.photoAlt) } : {}),
        order: input.order ?? current.order,
        updatedAt: now,
      })
      .where(and(eq(subsections.id, id), isNull(subsections.deletedAt)))
      .returning(liveColumns),
  );
  if (!row) throw notFound(`No subsection has the id ${id}. It may have been deleted; reload the list.`);
  return row;
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
export async function restoreSubsection(db: Database, id: number, now = new Date()): Promise<Subsection> {
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
    await assertSlugFree(tx as unknown as Database, subsection.chapterId, subsection.slug);
    const [row] = await guardSlug(subsection.slug, () =>
      tx.update(subsections).set({ deletedAt: null, updatedAt: now }).where(eq(subsections.id, id)).returning(liveColumns),
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
