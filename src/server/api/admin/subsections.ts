/**
 * Admin subsection routes (SPEC.md section 7, issue 6). Each checks the admin session first; each
 * successful change schedules a publish of the static pages.
 *   POST   /api/admin/subsections                   201 the subsection
 *   PUT    /api/admin/subsections/{id}              200 the subsection
 *   DELETE /api/admin/subsections/{id}              200 {ok:true}
 *   PUT    /api/admin/subsections/reorder           200 {ok:true}
 *   PUT    /api/admin/subsections/{id}/restore      200 the subsection (with chapterId)
 *   GET    /api/admin/subsections/deleted/recent    deleted within 24 hours, newest first, with chapterTitle
 */
import { subsectionReorderInput, subsectionSave } from "../../../lib/content-schemas.ts";
import { requireAdmin } from "../../access/admin.ts";
import { adminNow } from "../../admin/clock.ts";
import {
  createSubsection,
  deleteSubsection,
  recentlyDeletedSubsections,
  reorderSubsections,
  restoreSubsection,
  updateSubsection,
} from "../../admin/subsections.ts";
import { database } from "../../db/index.ts";
import { readJson } from "../../http/request.ts";
import { json, route } from "../../http/respond.ts";
import { schedulePublish } from "../../publish/publisher.ts";
import { saveContext } from "./chapters.ts";
import { parseId } from "./ids.ts";

const CONTENT_LIMIT = 256 * 1024;

/** POST /api/admin/subsections */
export const adminSubsections = route({
  POST: async (request) => {
    const admin = await requireAdmin(request);
    const { draft, publishAt, ...input } = await readJson(request, subsectionSave, CONTENT_LIMIT);
    const db = await database();
    const subsection = await createSubsection(db, input, saveContext(admin.email, draft, publishAt));
    await schedulePublish(db);
    return json(subsection, { status: 201 });
  },
});

const reorder = async (request: Request) => {
  const { chapterId, subsectionIds } = await readJson(request, subsectionReorderInput);
  const db = await database();
  await reorderSubsections(db, chapterId, subsectionIds, adminNow());
  await schedulePublish(db);
  return json({ ok: true });
};

/** /api/admin/subsections/{id}; PUT /api/admin/subsections/reorder shares the address pattern. */
export const adminSubsection = route<[id: string]>({
  PUT: async (request, id) => {
    const admin = await requireAdmin(request);
    if (id === "reorder") return reorder(request);
    const subsectionId = parseId(id);
    const { draft, publishAt, ...input } = await readJson(request, subsectionSave, CONTENT_LIMIT);
    const db = await database();
    const subsection = await updateSubsection(db, subsectionId, input, saveContext(admin.email, draft, publishAt));
    await schedulePublish(db);
    return json(subsection);
  },
  DELETE: async (request, id) => {
    await requireAdmin(request);
    const db = await database();
    await deleteSubsection(db, parseId(id), adminNow());
    await schedulePublish(db);
    return json({ ok: true });
  },
});

/** PUT /api/admin/subsections/{id}/restore */
export const adminSubsectionRestore = route<[id: string]>({
  PUT: async (request, id) => {
    await requireAdmin(request);
    const db = await database();
    const subsection = await restoreSubsection(db, parseId(id), adminNow());
    await schedulePublish(db);
    return json(subsection);
  },
});

/** GET /api/admin/subsections/deleted/recent */
export const adminDeletedSubsections = route({
  GET: async (request) => {
    await requireAdmin(request);
    return json(await recentlyDeletedSubsections(await database(), adminNow()));
  },
});
