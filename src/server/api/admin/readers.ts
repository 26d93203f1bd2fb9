/**
 * The Readers tab (issue 23): who reads what (src/server/admin/readers.ts).
 *   GET    /api/admin/readers                          {codes, chapters, notebooks, retention: {readingDays, readingTotalsDays}}
 *   GET    /api/admin/readers.csv?of=codes|chapters[&level=]
 *                                                      the codes' or the chapters' table as CSV, of one level or all
 *   DELETE /api/admin/access-codes/{login}/reading     200 {login, erased}: the code's reading, erased
 */
import { isLevel } from "../../../lib/levels.ts";
import { requireAdmin } from "../../access/admin.ts";
import { knownLogin } from "./access-codes.ts";
import { chaptersCsv, codesCsv, eraseReading, readersReport } from "../../admin/readers.ts";
import { config } from "../../config.ts";
import { database } from "../../db/index.ts";
import { badRequest } from "../../http/errors.ts";

import { json, route } from "../../http/respond.ts";
import { notebookCount } from "../../notebook/notebook.ts";

export const adminReaders = route({
  GET: async (request) => {
    await requireAdmin(request);
    const { readingDays, readingTotalsDays } = config().retention;
    const db = await database();
    // How many members keep a notebook (issue 32): a count, nothing of what is in them.
    return json({ ...(await readersReport(db)), notebooks: await notebookCount(db), retention: { readingDays, readingTotalsDays } });
  },
});

export const adminReadersCsv = route({
  GET: async (request) => {
    await requireAdmin(request);
    const params = new URL(request.url).searchParams;
    const of = params.get("of") ?? "codes";
    if (of !== "codes" && of !== "chapters") throw badRequest('of: must be "codes" or "chapters".');
    const level = params.get("level") || null;
    if (level !== null && !isLevel(level)) throw badRequest('level: must be "Operator", "Architect" or "Mastermind".');
    const report = await readersReport(await database());
    const body =
      of === "codes"
        ? codesCsv(report.codes.filter((code) => !level || code.level === level))
        : chaptersCsv(report.chapters.filter((chapter) => !level || chapter.level === level));
    const day = new Date().toISOString().slice(0, 10);
    return new Response(body, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="readers-${of}${level ? `-${level.toLowerCase()}` : ""}-${day}.csv"`,
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
      },
    });
  },
});

export const adminEraseReading = route<[login: string]>({
  DELETE: async (request, login) => {
    await requireAdmin(request);
    return json(await eraseReading(await database(), knownLogin(login)));
  },
});
