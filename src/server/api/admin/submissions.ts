/**
 * GET /api/admin/assessment/sessions[?cursor=&limit=&answered=true]   a page of scan sessions,
 *     newest first, with their answers: {submissions, total, all, nextCursor}; each answer
 *     {id, questionNumber, answer, questionText, answerText} (today's wording of the question and
 *     of the chosen option, from content/assessment.yaml); with
 *     answered=true only those with at least one answer (`total` counts those, `all` every one)
 * GET /api/admin/assessment/sessions.csv[?answered=true]   the same as a CSV download, streamed
 * The list also takes `id={uuid}`: that one submission (the link a lead webhook carries).
 * Both take `band={level}` too: only completed scans whose score lies in that result band.
 * GET /api/admin/assessment/funnel   {opened, started, completed, steps: [{step, reached, stopped}],
 *     bands: [{level, min, max}], weeks: [{week, bands: {level: n}, total}]} (src/server/admin/scan-funnel.ts)
 */
import { requireAdmin } from "../../access/admin.ts";
import { decodeCursor, listSubmissions, MAX_SUBMISSIONS_PAGE, SUBMISSIONS_PAGE, submissionsCsvStream, withAnswerTexts } from "../../admin/submissions.ts";
import { completionsByBand, scanFunnel } from "../../admin/scan-funnel.ts";
import { loadAssessment } from "../../assessment/content.ts";
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

/** `band={level}`: the band of content/assessment.yaml with that level label; 400 naming the bands otherwise. */
function bandFilter(params: URLSearchParams): { min: number; max: number } | undefined {
  const level = params.get("band");
  if (level === null || level === "") return undefined;
  const { bands } = loadAssessment();
  const band = bands.find((b) => b.level === level);
  if (!band) throw badRequest(`band: must be one of ${bands.map((b) => `"${b.level}"`).join(", ")}.`);
  return { min: band.min, max: band.max };
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
    const id = params.get("id") ?? undefined;
    if (id !== undefined && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) throw badRequest("id: must be a submission's id.");
    const page = await listSubmissions(await database(), { cursor, limit, answered: answeredOnly(params), band: bandFilter(params), id: id?.toLowerCase() });
    return json({ ...page, submissions: withAnswerTexts(page.submissions, loadAssessment().questions) });
  },
});

export const adminSubmissionsCsv = route({
  GET: async (request) => {
    await requireAdmin(request);
    const params = new URL(request.url).searchParams;
    const options = { answered: answeredOnly(params), band: bandFilter(params), bands: loadAssessment().bands };
    const { stream, done } = submissionsCsvStream(await database(), options);
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

export const adminScanFunnel = route({
  GET: async (request) => {
    await requireAdmin(request);
    const db = await database();
    const { bands } = loadAssessment();
    const [funnel, weeks] = [await scanFunnel(db), await completionsByBand(db, bands)];
    return json({ ...funnel, bands: bands.map(({ level, min, max }) => ({ level, min, max })), weeks });
  },
});
