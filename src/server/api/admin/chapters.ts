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
 *   GET    /api/admin/chapters/{id}/subsections   its live subsections, drafts too, in order
 * POST and PUT also take `draft` and `publishAt` (issue 14: src/lib/content-schemas.ts saveOptions).
 */
import { chapterReorderInput, chapterSave } from "../../../lib/content-schemas.ts";
import { requireAdmin } from "../../access/admin.ts";
import {
  createChapter,
  deleteChapter,
  listAllChapters,
  recentlyDeletedChapters,
  reorderChapters,
  restoreChapter,
  updateChapter,
  type SaveContext,
} from "../../admin/chapters.ts";
import { listAdminSubsections } from "../../admin/subsections.ts";
import { badRequest } from "../../http/errors.ts";
import { adminNow } from "../../admin/clock.ts";
import { database } from "../../db/index.ts";
import { readJson } from "../../http/request.ts";
import { json, route } from "../../http/respond.ts";
import { schedulePublish } from "../../publish/publisher.ts";
import { parseId } from "./ids.ts";

const CONTENT_LIMIT = 256 * 1024;

/** A save by this admin now: published, or a draft (issue 14) to publish by hand or at `publishAt`. */
export function saveContext(by: string, draft: boolean | undefined, publishAt: string | null | undefined): SaveContext {
  const now = adminNow();
  const at = publishAt ? new Date(publishAt) : null;
  if (at && at.getTime() <= now.getTime()) throw badRequest("publishAt: choose a time in the future, or publish now.");
  return { now, by, draft: draft ?? false, publishAt: at };
}

/** /api/admin/chapters */
export const adminChapters = route({
  GET: async (request) => {
    await requireAdmin(request);
    return json(await listAllChapters(await database()));
  },
  POST: async (request) => {
    const admin = await requireAdmin(request);
    const { draft, publishAt, ...input } = await readJson(request, chapterSave, CONTENT_LIMIT);
    const db = await database();
    const chapter = await createChapter(db, input, saveContext(admin.email, draft, publishAt));
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
    const admin = await requireAdmin(request);
    if (id === "reorder") return reorder(request);
    const chapterId = parseId(id);
    const { draft, publishAt, ...input } = await readJson(request, chapterSave, CONTENT_LIMIT);
    const db = await database();
    const chapter = await updateChapter(db, chapterId, input, saveContext(admin.email, draft, publishAt));
    await schedulePublish(db);
    return json(chapter);
  },
  DELETE: async (request, id) => {
    await requireAdmin(request);
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

/** GET /api/admin/chapters/{id}/subsections: the panel's list, with drafts and pending drafts. */
export const adminChapterSubsections = route<[id: string]>({
  GET: async (request, id) => {
    await requireAdmin(request);
    return json(await listAdminSubsections(await database(), parseId(id)));
  },
});
