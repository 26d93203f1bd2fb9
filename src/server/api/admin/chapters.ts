/**
 * Admin chapter routes (SPEC.md section 7, issue 6). Each checks the admin session first; each
 * successful change schedules a publish of the static pages.
 *   GET    /api/admin/chapters                    every live chapter with content
 *   POST   /api/admin/chapters                    201 the chapter
 *   PUT    /api/admin/chapters/{id}               200 the chapter
 *   DELETE /api/admin/chapters/{id}               200 {ok:true} (with its subsections)
 *   PUT    /api/admin/chapters/reorder            200 {ok:true}
 *   PUT    /api/admin/chapters/{id}/restore       200 the chapter
 *   GET    /api/admin/chapters/deleted/recent     deleted within 24 hours, newest first
 */
import { chapterInput, chapterReorderInput } from "../../../lib/content-schemas.ts";
import { requireAdmin } from "../../access/admin.ts";
import {
  createChapter,
  deleteChapter,
  listAllChapters,
  recentlyDeletedChapters,
  reorderChapters,
  restoreChapter,
  updateChapter,
} from "../../admin/chapters.ts";
import { adminNow } from "../../admin/clock.ts";
import { database } from "../../db/index.ts";
import { readJson, requireSameSite } from "../../http/request.ts";
import { json, route } from "../../http/respond.ts";
import { schedulePublish } from "../../publish/publisher.ts";
import { parseId } from "./ids.ts";

const CONTENT_LIMIT = 256 * 1024;

/** /api/admin/chapters */
export const adminChapters = route({
  GET: async (request) => {
    await requireAdmin(request);
    return json(await listAllChapters(await database()));
  },
  POST: async (request) => {
    await requireAdmin(request);
    const input = await readJson(request, chapterInput, CONTENT_LIMIT);
    const db = await database();
    const chapter = await createChapter(db, input, adminNow());
    await schedulePublish(db);
    return json(chapter, { status: 201 });
  },
});

const reorder = async (request: Request) => {
  const { chapterIds } = await readJson(request, chapterReorderInput);
  const db = await database();
  await reorderChapters(db, chapterIds, adminNow());
  await schedulePublish(db);
  return json({ ok: true });
};

/** /api/admin/chapters/{id}; PUT /api/admin/chapters/reorder shares the address pattern. */
export const adminChapter = route<[id: string]>({
  PUT: async (request, id) => {
    await requireAdmin(request);
    if (id === "reorder") return reorder(request);
    const chapterId = parseId(id);
    const input = await readJson(request, chapterInput, CONTENT_LIMIT);
    const db = await database();
    const chapter = await updateChapter(db, chapterId, input, adminNow());
    await schedulePublish(db);
    return json(chapter);
  },
  DELETE: async (request, id) => {
    await requireAdmin(request);
    requireSameSite(request);
    const chapterId = parseId(id);
    const db = await database();
    await deleteChapter(db, chapterId, adminNow());
    await schedulePublish(db);
    return json({ ok: true });
  },
});

/** PUT /api/admin/chapters/{id}/restore */
export const adminChapterRestore = route<[id: string]>({
  PUT: async (request, id) => {
    await requireAdmin(request);
    requireSameSite(request);
    const db = await database();
    const chapter = await restoreChapter(db, parseId(id), adminNow());
    await schedulePublish(db);
    return json(chapter);
  },
});

/** GET /api/admin/chapters/deleted/recent */
export const adminDeletedChapters = route({
  GET: async (request) => {
    await requireAdmin(request);
    return json(await recentlyDeletedChapters(await database(), adminNow()));
  },
});
