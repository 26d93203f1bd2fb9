/** A signed-in member's reading (issue 23): heartbeats from chapter pages, their place, and the figures on their profile. */
import { z } from "../../lib/zod.ts";
import { readerSession } from "../auth/session.ts";
import { database } from "../db/index.ts";
import { forbidden, notFound, unauthenticated } from "../http/errors.ts";
import { readJson } from "../http/request.ts";
import { json, route } from "../http/respond.ts";
import { readingPlace, readingStats, recordHeartbeat } from "../reading/activity.ts";

const heartbeatBody = z.object({
  slug: z.string().min(1, "is required").max(200, "is too long"),
  section: z.string().min(1, "is empty").max(200, "is too long").nullish(),
});

async function requireReader(request: Request) {
  const session = await readerSession(await database(), request);
  if (!session) throw unauthenticated("Sign in with an access code first.");
  return session;
}

/**
 * POST /api/reading/heartbeat {slug, section?}: the member is reading this chapter, at this
 * subsection. 204 when it counted; 202 when it came within 15 s of the last counted one (the
 * place is still kept, nothing counted). No body either way: the page never reads one, and an
 * unread body would keep its request open. 404 for a chapter or subsection that is not live, 403
 * for one the member's level does not open: nothing is recorded. 429 past HEARTBEAT_LIMIT (a code's
 * heartbeats, counted in the same statement).
 */
export const heartbeat = route({
  POST: async (request) => {
    const body = await readJson(request, heartbeatBody);
    const session = await requireReader(request);
    const outcome = await recordHeartbeat(await database(), session, body);
    if (outcome === "not_found") throw notFound("No such chapter or subsection.");
    if (outcome === "forbidden") throw forbidden();
    return new Response(null, { status: outcome === "counted" ? 204 : 202 });
  },
});

/** GET /api/reading/place: {place} where the member last read, on any device (null: nowhere yet). */
export const place = route({
  GET: async (request) => {
    const session = await requireReader(request);
    return json({ place: await readingPlace(await database(), session) });
  },
});

/** GET /api/profile/stats: streak, the last seven days, sessions and their average length. */
export const profileStats = route({
  GET: async (request) => {
    const session = await requireReader(request);
    return json(await readingStats(await database(), session.accessCodeId));
  },
});
