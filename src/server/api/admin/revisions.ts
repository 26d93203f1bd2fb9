/**
 * Revisions (issue 14). Each checks the admin session first.
 *   GET  /api/admin/{kind}/{id}/revisions     the item's kept versions, newest first
 *   POST /api/admin/revisions/{id}/restore    200 {kind, item}: the version written back as a new
 *                                             save (the one it replaces is kept), published as an edit is
 */
import { requireAdmin } from "../../access/admin.ts";
import { adminNow } from "../../admin/clock.ts";
import { restoreRevision } from "../../admin/drafts.ts";
import { listRevisions } from "../../admin/revisions.ts";
import { database } from "../../db/index.ts";

import { json, route } from "../../http/respond.ts";
import { schedulePublish } from "../../publish/publisher.ts";
import { parseKind } from "./drafts.ts";
import { parseId } from "./ids.ts";

/** GET /api/admin/{kind}/{id}/revisions */
export const adminRevisions = route<[kind: string, id: string]>({
  GET: async (request, kind, id) => {
    await requireAdmin(request);
    return json(await listRevisions(await database(), parseKind(kind), parseId(id)));
  },
});

/** POST /api/admin/revisions/{id}/restore */
export const adminRevisionRestore = route<[id: string]>({
  POST: async (request, id) => {
    const admin = await requireAdmin(request);
    const db = await database();
    const restored = await restoreRevision(db, parseId(id), { now: adminNow(), by: admin.email });
    await schedulePublish(db);
    return json(restored);
  },
});
