/**
 * GET  /api/admin/publish   {state: live|publishing|failed, lastPublishedAt, error, pending,
 *                           cachePurge, searchIndex} (src/server/publish/state.ts: PublishView)
 * POST /api/admin/publish   202, the same shape: purge (every open purge with it) and publish now
 */
import { requireAdmin } from "../../access/admin.ts";
import { database } from "../../db/index.ts";

import { json, route } from "../../http/respond.ts";
import { publishNow } from "../../publish/publisher.ts";
import { readPublishView } from "../../publish/state.ts";

export const adminPublish = route({
  GET: async (request) => {
    await requireAdmin(request);
    return json(await readPublishView(await database()));
  },
  POST: async (request) => {
    await requireAdmin(request);
    return json(await publishNow(await database()), { status: 202 });
  },
});
