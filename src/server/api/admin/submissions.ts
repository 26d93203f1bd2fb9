/**
 * GET /api/admin/assessment/sessions[?cursor=&limit=]   a page of scan sessions, newest first,
 *     with their answers: {submissions, total, nextCursor}
 * GET /api/admin/assessment/sessions.csv                 all of them as a CSV download, streamed
 */
import { requireAdmin } from "../../access/admin.ts";
import { decodeCursor, listSubmissions, MAX_SUBMISSIONS_PAGE, SUBMISSIONS_PAGE, submissionsCsvStream } from "../../admin/submissions.ts";
import { database, keepConnectionUntil } from "../../db/index.ts";
import { badRequest } from "../../http/errors.ts";
import { json, route } from "../../http/respond.ts";

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
    return json(await listSubmissions(await database(), { cursor, limit }));
  },
});

export const adminSubmissionsCsv = route({
  GET: async (request) => {
    await requireAdmin(request);
    const { stream, done } = submissionsCsvStream(await database());
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
