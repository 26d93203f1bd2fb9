/** The public read API for chapters and subsections (SPEC.md section 7). */
import { levelOf } from "../../lib/levels.ts";
import { SLUG_PATTERN } from "../../lib/slug.ts";
import { requireReadable } from "../access/reader.ts";
import { database } from "../db/index.ts";
import { badRequest, notFound } from "../http/errors.ts";
import { publicJson } from "../http/cdn.ts";
import { json, route } from "../http/respond.ts";
import { getChapterById, getChapterBySlug, listChapters, listSubsections } from "../repositories/chapters.ts";
import { operatorTextStamps } from "../search/text-stamps.ts";

/**
 * Answers of the open level are the same for everyone: kept at the CDN until the next content
 * change purges them, with an ETag (docs/decisions/0007). Anything else is the caller's own, and
 * so is an answer asked for with a query (the admin panel's `?fresh=`: a purge takes seconds to
 * reach every CDN node, and the operator must see what they just saved).
 */
function answerFor(request: Request, level: string | null, data: unknown): Response {
  return levelOf(level) === "Operator" && !new URL(request.url).search ? publicJson(data) : json(data);
}

/**
 * GET /api/chapters: every live chapter with its level, never its content; a locked chapter the
 * operator gave a teaser carries it (`teaser`), the others have no such field. An Operator chapter
 * carries `textStamp`, the fingerprint of its searchable text (src/server/search/text-stamps.ts):
 * the search box shows a result of the static index only while it matches the index's own.
 */
export const chapterList = route({
  GET: async (request) => {
    const db = await database();
    const chapters = await listChapters(db);
    const stamps = await operatorTextStamps(db);
    const list = chapters.map(({ teaser, ...chapter }) => {
      const textStamp = stamps.get(chapter.id);
      return { ...chapter, ...(teaser ? { teaser } : {}), ...(textStamp ? { textStamp } : {}) };
    });
    return answerFor(request, "Operator", list);
  },
});

/** GET /api/chapters/{slug}: one chapter, when the caller may read its level. */
export const chapterBySlug = route<[slug: string]>({
  GET: async (request, slug) => {
    const chapter = SLUG_PATTERN.test(slug) ? await getChapterBySlug(await database(), slug) : undefined;
    if (!chapter) throw notFound(`No chapter has the address "${slug}".`);
    await requireReadable(request, chapter.level);
    return answerFor(request, chapter.level, chapter);
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
    return answerFor(request, chapter.level, await listSubsections(db, chapter.id));
  },
});
