/**
 * The Readers tab at scale (issue 23): 500 members reading daily for a year, 182,500 daily rows
 * (reading_days), one place each (reading_places), on PostgreSQL. Times readersReport in-process
 * and GET /api/admin/readers through the product (`npm start`'s entry point), each as the median
 * and max of 7 runs after one warm-up. Figures, never pass/fail.
 *
 * A scratch database is created on the server of `baseUrl` and dropped afterwards.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { readersReport } from "../../src/server/admin/readers.ts";
import { hashPassword } from "../../src/server/auth/password.ts";
import { seed } from "../../src/server/content/seed.ts";
import { openDatabase } from "../../src/server/db/client.ts";
import { sql } from "../../src/server/db/orm.ts";
import { adminAccounts } from "../../src/server/db/schema.ts";
import { createScratchDatabase } from "../../tests/support/databases.ts";
import { startProduct } from "../../tests/support/product-server.ts";
import { timed } from "./timing.ts";

const MEMBERS = 500;
const DAYS = 365;
const ADMIN = { email: "readers-bench@example.com", password: "readers bench password, long enough" };

const elapsedMs = (started: number) => performance.now() - started;

/** The summary line, for this file and for bench/run.ts. */
export function readersLine(figures: Record<string, number | undefined>): string {
  const n = (value: number | undefined) => (value === undefined ? "n/a" : Math.round(value).toLocaleString("en-US"));
  return (
    `Readers tab, ${MEMBERS} members x ${DAYS} days (${n(figures.dailyRows)} daily rows) on PostgreSQL: ` +
    `report ${n(figures.reportMedianMs)} ms median (max ${n(figures.reportMaxMs)}), ` +
    `GET /api/admin/readers ${n(figures.httpMedianMs)} ms median (max ${n(figures.httpMaxMs)}), ` +
    `${figures.httpBytes === undefined ? "n/a" : Math.round(figures.httpBytes / 1024)} KB`
  );
}

/** Seeds the year of reading: access codes, daily rows and places, all in SQL. Answers the daily row count. */
async function seedReading(db: Awaited<ReturnType<typeof openDatabase>>["db"]): Promise<number> {
  // Architect and Mastermind, mixed (every third a Mastermind).
  await db.execute(sql`
    INSERT INTO access_codes (login, password, level)
    SELECT format('bench-reader-%s', lpad(n::text, 3, '0')), 'scrypt$bench',
      CASE WHEN n % 3 = 0 THEN 'Mastermind' ELSE 'Architect' END
    FROM generate_series(1, ${MEMBERS}::integer) AS n`);
  // One row per member and UTC day, today and the 364 days before: a chapter its level opens,
  // kept for three days before the next (so a member opens many chapters, some several times),
  // 60 to 1,800 seconds, finished on the third day of a stay.
  await db.execute(sql`
    WITH readable AS (
      SELECT held.level, array_agg(ch.id ORDER BY ch."order", ch.id) AS ids
      FROM (VALUES ('Architect'), ('Mastermind')) AS held(level)
      JOIN chapters ch ON ch.deleted_at IS NULL AND ch.status = 'published'
        AND (coalesce(ch.level, 'Operator') <> 'Mastermind' OR held.level = 'Mastermind')
      GROUP BY held.level
    ),
    today AS (SELECT (now() AT TIME ZONE 'UTC')::date AS day)
    INSERT INTO reading_days (access_code_id, chapter_id, day, seconds, finished, last_at)
    SELECT c.id,
      r.ids[1 + ((c.id * 7 + d / 3) % array_length(r.ids, 1))],
      today.day - d,
      60 + ((c.id * 31 + d * 17) % 1741),
      d % 3 = 2,
      least(now(), ((today.day - d) + time '07:00' + (c.id % 840) * interval '1 minute') AT TIME ZONE 'UTC')
    FROM access_codes c
    JOIN readable r ON r.level = c.level
    CROSS JOIN generate_series(0, ${DAYS - 1}::integer) AS d
    CROSS JOIN today`);
  // Each member's place: the chapter of its latest day, at its first live subsection (if any).
  await db.execute(sql`
    INSERT INTO reading_places (access_code_id, chapter_id, subsection_id, updated_at, counted_at, counted)
    SELECT DISTINCT ON (rd.access_code_id) rd.access_code_id, rd.chapter_id,
      (SELECT s.id FROM subsections s WHERE s.chapter_id = rd.chapter_id AND s.deleted_at IS NULL ORDER BY s."order", s.id LIMIT 1),
      rd.last_at, rd.last_at, true
    FROM reading_days rd
    ORDER BY rd.access_code_id, rd.day DESC`);
  await db.execute(sql`ANALYZE`);
  const counted = (await db.execute(sql`
    SELECT (SELECT count(*) FROM reading_days)::integer AS days,
      (SELECT count(*) FROM reading_places)::integer AS places,
      (SELECT count(*) FROM access_codes)::integer AS codes`)) as unknown as { rows: Array<{ days: number; places: number; codes: number }> };
  const { days, places, codes } = counted.rows[0]!;
  if (Number(codes) !== MEMBERS || Number(places) !== MEMBERS || Number(days) !== MEMBERS * DAYS) {
    throw new Error(`Seeded ${codes} codes, ${days} daily rows and ${places} places; expected ${MEMBERS}, ${MEMBERS * DAYS} and ${MEMBERS}.`);
  }
  return Number(days);
}

export async function readersScale(baseUrl: string, log: (line: string) => void): Promise<Record<string, number>> {
  const scratch = await createScratchDatabase(baseUrl);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "sb-readers-"));
  try {
    const handle = await openDatabase({ driver: "pg", url: scratch.url });
    let dailyRows: number;
    let seedSeconds: number;
    let report: { median: number; max: number };
    try {
      await handle.migrate();
      await seed(handle.db);
      await handle.db.insert(adminAccounts).values({ email: ADMIN.email, passwordHash: await hashPassword(ADMIN.password) });
      const seeding = performance.now();
      dailyRows = await seedReading(handle.db);
      seedSeconds = Number((elapsedMs(seeding) / 1000).toFixed(1));
      log(`Readers tab: seeded ${MEMBERS} codes, ${dailyRows.toLocaleString("en-US")} daily rows and ${MEMBERS} places in ${seedSeconds} s`);
      report = await timed(() => readersReport(handle.db));
    } finally {
      await handle.close();
    }

    const server = await startProduct({ DATA_DIR: work, SITE_DIR: path.join(work, "site"), DATABASE_URL: scratch.url });
    let http: { median: number; max: number };
    let httpBytes = 0;
    try {
      const login = await fetch(`${server.url}/api/admin/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ADMIN) });
      await login.arrayBuffer();
      if (login.status !== 200) throw new Error(`POST /api/admin/login answered ${login.status}`);
      const cookie = login.headers.getSetCookie()[0]!.split(";")[0]!;
      http = await timed(async () => {
        const response = await fetch(`${server.url}/api/admin/readers`, { headers: { cookie } });
        const body = await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`GET /api/admin/readers answered ${response.status}`);
        httpBytes = body.byteLength;
      });
    } finally {
      await server.stop();
    }

    const figures = { dailyRows, seedSeconds, reportMedianMs: report.median, reportMaxMs: report.max, httpMedianMs: http.median, httpMaxMs: http.max, httpBytes };
    log(readersLine(figures));
    return figures;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
    await scratch.drop();
  }
}
