/**
 * GET /api/admin/assessment/sessions[?cursor=&limit=&answered=true]   a page of scan sessions,
 *     newest first, with their answers: {submissions, total, all, nextCursor}; with
 *     answered=true only those with at least one answer (`total` counts those, `all` every one)
 * GET /api/admin/assessment/sessions.csv[?answered=true]   the same as a CSV download, streamed
 */
import { requireAdmin } from "../../access/admin.ts";
import { decodeCursor, listSubmissions, MAX_SUBMISSIONS_PAGE, SUBMISSIONS_PAGE, submissionsCsvStream } from "../../admin/submissions.ts";
import { database, keepConnectionUntil } from "../../db/index.ts";
import { badRequest } from "../../http/errors.ts";
import { json, route } from "../../http/respond.ts";

/** `answered=true` (or 1): only scans with at least one answer; anything else but false is a 400. */
function answeredOnly(params: URLSearchParams): boolean {
  const value = params.get("answered");
  if (value === null || value === "false" || value === "0") return false;
  if (value === "true" || value === "1") return true;
  throw badRequest("answered: must be true or false.");
}

export const adminSubmissions = route({
  GET: async (request) => {
    await requireAdmin(request);
    const params = new URL(request.url).searchParams;
    const cursorText = params.get("cursor");
    const cursor = cursorText ? decodeCursor(cursorText) : undefined;
    if (cursor === null) throw badRequest("cursor: is not one this list gave; reload the list.");
    const limit = Number(params.get("limit") ?? SUBMISSIONS_PAGE);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SUBMISSIONS_PAGE) {
      throw badRequest(`limit: must be a whole number from 1 to ${MAX_SUBMISSIONS_PAGE}.`);
    }
    return json(await listSubmissions(await database(), { cursor, limit, answered: answeredOnly(params) }));
  },
});

export const adminSubmissionsCsv = route({
  GET: async (request) => {
    await requireAdmin(request);
    const { stream, done } = submissionsCsvStream(await database(), answeredOnly(new URL(request.url).searchParams));
    // The body is read from the database page by page after this returns.
    keepConnectionUntil(done);
    const day = new Date().toISOString().slice(0, 10);
    return new Response(stream, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="assessment-submissions-${day}.csv"`,
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      },
    });
  },
});
