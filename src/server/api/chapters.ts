/** The public read API for chapters and subsections (SPEC.md section 7). */
import { SLUG_PATTERN } from "../../lib/slug.ts";
import { requireReadable } from "../access/reader.ts";
import { database } from "../db/index.ts";
import { badRequest, notFound } from "../http/errors.ts";
import { json, route } from "../http/respond.ts";
import { getChapterById, getChapterBySlug, listChapters, listSubsections } from "../repositories/chapters.ts";

/** GET /api/chapters: every live chapter with its level, never its content. */
export const chapterList = route({
  GET: async () => json(await listChapters(await database())),
});

/** GET /api/chapters/{slug}: one chapter, when the caller may read its level. */
export const chapterBySlug = route<[slug: string]>({
  GET: async (request, slug) => {
    const chapter = SLUG_PATTERN.test(slug) ? await getChapterBySlug(await database(), slug) : undefined;
    if (!chapter) throw notFound(`No chapter has the address "${slug}".`);
    await requireReadable(request, chapter.level);
    return json(chapter);
  },
});

/** GET /api/chapters/{chapterId}/subsections: the chapter's subsections in order. */
export const chapterSubsections = route<[chapterId: string]>({
  GET: async (request, chapterId) => {
    if (!/^[1-9]\d{0,9}$/.test(chapterId) || Number(chapterId) > 2 ** 31 - 1) {
      throw badRequest(`chapterId must be a positive whole number, not "${chapterId}".`);
    }
    const db = await database();
    const chapter = await getChapterById(db, Number(chapterId));
    if (!chapter) throw notFound(`No chapter has the id ${chapterId}.`);
    await requireReadable(request, chapter.level);
    return json(await listSubsections(db, chapter.id));
  },
});
