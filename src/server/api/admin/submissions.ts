/**
 * GET /api/admin/assessment/sessions       every scan session, newest first, with its answers
 * GET /api/admin/assessment/sessions.csv   the same as a CSV download
 */
import { requireAdmin } from "../../access/admin.ts";
import { listSubmissions, submissionsCsv } from "../../admin/submissions.ts";
import { database } from "../../db/index.ts";
import { json, route } from "../../http/respond.ts";

export const adminSubmissions = route({
  GET: async (request) => {
    await requireAdmin(request);
    return json(await listSubmissions(await database()));
  },
});

export const adminSubmissionsCsv = route({
  GET: async (request) => {
    await requireAdmin(request);
    const csv = submissionsCsv(await listSubmissions(await database()));
    const day = new Date().toISOString().slice(0, 10);
    return new Response(csv, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="assessment-submissions-${day}.csv"`,
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      },
    });
  },
});
