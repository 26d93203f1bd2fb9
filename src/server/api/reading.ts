/** A signed-in client's reading: heartbeats from chapter pages, and the figures on their profile. */
import { z } from "../../lib/zod.ts";
import { readerSession } from "../auth/session.ts";
import { database } from "../db/index.ts";
import { unauthenticated } from "../http/errors.ts";
import { readJson } from "../http/request.ts";
import { json, route } from "../http/respond.ts";
import { recordHeartbeat, readingStats } from "../reading/activity.ts";

const heartbeatBody = z.object({ slug: z.string().max(200, "is too long") });

async function requireReader(request: Request) {
  const session = await readerSession(await database(), request);
  if (!session) throw unauthenticated("Sign in with an access code first.");
  return session;
}

/** POST /api/reading/heartbeat {slug}: the reader is on this chapter now. */
export const heartbeat = route({
  POST: async (request) => {
    const { slug } = await readJson(request, heartbeatBody);
    const session = await requireReader(request);
    await recordHeartbeat(await database(), session.accessCodeId, slug);
    return new Response(null, { status: 204 });
  },
});

/** GET /api/profile/stats: streak, the last seven days, sessions and their average length. */
export const profileStats = route({
  GET: async (request) => {
    const session = await requireReader(request);
    return json(await readingStats(await database(), session.accessCodeId));
  },
});
