/**
 * The Readers tab (issue 23): who reads what, from the daily reading totals (reading_days), the
 * members' places (reading_places), the access codes and the live book. One pass over the daily
 * rows, grouped by code and chapter on the database; the rest is summed here. The words are
 * defined once, in src/lib/reading-terms.ts.
 *
 * Only live chapters count: a deleted chapter's reading leaves the figures with it.
 */
import { chapterNumber } from "../../lib/chapter-number.ts";
import { asc, sql } from "../db/orm.ts";
import type { Database } from "../db/types.ts";
import { accessCodes, chapters, readingDays, readingPlaces, readingSessions, subsections } from "../db/schema.ts";
import { notFound } from "../http/errors.ts";
import { publicChapter, publicSubsection } from "../repositories/chapters.ts";
import { LEVELS, levelOf, type Level } from "../../lib/levels.ts";
import { csvCell } from "./submissions.ts";
import type { ChapterReading, CodeReading, ReadersReport } from "../../lib/readers.ts";

export type { ChapterReading, CodeReading, ReadersReport };

const median = (values: number[]): number | null => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : Math.round((sorted[middle - 1]! + sorted[middle]!) / 2);
};

export async function readersReport(db: Database): Promise<ReadersReport> {
  // (One statement at a time: on PGlite they queue anyway, and a pool answers each in turn.)
  const totals = await db
    .select({
      code: readingDays.accessCodeId,
      chapter: readingDays.chapterId,
      seconds: sql<number>`sum(${readingDays.seconds})`.mapWith(Number),
      finished: sql<boolean>`bool_or(${readingDays.finished})`.mapWith((value: unknown) => value === true || value === "t"),
      lastAt: sql<Date>`max(${readingDays.lastAt})`.mapWith((value: unknown) => new Date(value as string)),
    })
    .from(readingDays)
    .groupBy(readingDays.accessCodeId, readingDays.chapterId);
  const codes = await db
    .select({ id: accessCodes.id, login: accessCodes.login, level: accessCodes.level, isActive: accessCodes.isActive })
    .from(accessCodes)
    .orderBy(asc(accessCodes.login));
  const book = await db
    .select({ id: chapters.id, slug: chapters.slug, title: chapters.title, level: chapters.level })
    .from(chapters)
    .where(publicChapter())
    .orderBy(asc(chapters.order), asc(chapters.id));
  const places = await db
    .select({ code: readingPlaces.accessCodeId, chapter: readingPlaces.chapterId, subsection: readingPlaces.subsectionId })
    .from(readingPlaces);
  const parts = await db
    .select({ id: subsections.id, chapter: subsections.chapterId, title: subsections.title })
    .from(subsections)
    .where(publicSubsection())
    .orderBy(asc(subsections.order), asc(subsections.id));

  // The book: each live chapter's level and position in it; each live subsection's number.
  const byLevel = new Map<Level, typeof book>(LEVELS.map((level) => [level, []]));
  for (const chapter of book) byLevel.get(levelOf(chapter.level))!.push(chapter);
  const chapterInfo = new Map(
    book.map((chapter) => {
      const level = levelOf(chapter.level);
      const list = byLevel.get(level)!;
      return [chapter.id, { ...chapter, level, position: list.indexOf(chapter) + 1, of: list.length }];
    }),
  );
  const partNumber = new Map<number, { chapter: number; number: number; title: string }>();
  const counted = new Map<number, number>();
  for (const part of parts) {
    const number = (counted.get(part.chapter) ?? 0) + 1;
    counted.set(part.chapter, number);
    partNumber.set(part.id, { chapter: part.chapter, number, title: part.title });
  }

  const perCode = new Map<number, typeof totals>();
  const perChapter = new Map<number, typeof totals>();
  const add = (map: Map<number, typeof totals>, key: number, row: (typeof totals)[number]) => {
    const list = map.get(key);
    if (list) list.push(row);
    else map.set(key, [row]);
  };
  for (const row of totals) {
    if (!chapterInfo.has(row.chapter)) continue;
    add(perCode, row.code, row);
    add(perChapter, row.chapter, row);
  }
  const placeOf = new Map(places.map((place) => [place.code, place]));

  return {
    codes: codes.map((code) => {
      const level = levelOf(code.level);
      const rows = perCode.get(code.id) ?? [];
      const last = rows.reduce<Date | null>((latest, row) => (latest && latest > row.lastAt ? latest : row.lastAt), null);
      const place = placeOf.get(code.id);
      const chapter = place && chapterInfo.get(place.chapter);
      // A subsection moved to another chapter since is not where the member is in this one.
      const found = place?.subsection ? partNumber.get(place.subsection) : undefined;
      const part = found?.chapter === place?.chapter ? found : undefined;
      return {
        login: code.login,
        level,
        active: code.isActive === "true",
        lastVisit: last?.toISOString() ?? null,
        opened: rows.length,
        finished: rows.filter((row) => row.finished).length,
        finishedInLevel: rows.filter((row) => row.finished && chapterInfo.get(row.chapter)!.level === level).length,
        chaptersInLevel: byLevel.get(level)!.length,
        seconds: rows.reduce((sum, row) => sum + row.seconds, 0),
        place: chapter
          ? {
              slug: chapter.slug,
              title: chapter.title,
              level: chapter.level,
              position: chapter.position,
              of: chapter.of,
              sectionNumber: part?.number ?? null,
              sectionTitle: part?.title ?? null,
            }
          : null,
      };
    }),
    chapters: [...chapterInfo.values()]
      .sort((a, b) => LEVELS.indexOf(a.level) - LEVELS.indexOf(b.level) || a.position - b.position)
      .map((chapter) => {
        const rows = perChapter.get(chapter.id) ?? [];
        return {
          slug: chapter.slug,
          title: chapter.title,
          level: chapter.level,
          position: chapter.position,
          opened: rows.length,
          finished: rows.filter((row) => row.finished).length,
          medianSeconds: median(rows.map((row) => row.seconds)),
        };
      }),
  };
}

const minutes = (seconds: number | null) => (seconds === null ? null : Math.round(seconds / 60));
const csv = (rows: unknown[][]) => rows.map((row) => `${row.map(csvCell).join(",")}\r\n`).join("");

/** The codes' table as CSV (RFC 4180, CRLF), times in whole minutes. */
export function codesCsv(codes: readonly CodeReading[]): string {
  return csv([
    ["access code", "level", "active", "last visit", "chapters opened", "chapters finished", "finished in its level", "chapters in its level", "minutes read", "where: chapter", "where: level", "where: chapter number", "where: subsection number", "where: subsection"],
    ...codes.map((c) => [
      c.login,
      c.level,
      c.active,
      c.lastVisit,
      c.opened,
      c.finished,
      c.finishedInLevel,
      c.chaptersInLevel,
      minutes(c.seconds),
      c.place?.title,
      c.place?.level,
      c.place && chapterNumber(c.place.position),
      c.place?.sectionNumber,
      c.place?.sectionTitle,
    ]),
  ]);
}

/** The chapters' table as CSV, median times in whole minutes. */
export function chaptersCsv(chapters: readonly ChapterReading[]): string {
  return csv([
    ["chapter", "level", "number", "members opened", "members finished", "median minutes read"],
    ...chapters.map((c) => [c.title, c.level, chapterNumber(c.position), c.opened, c.finished, minutes(c.medianSeconds)]),
  ]);
}

/**
 * Erases everything recorded of one code's reading (its sessions, daily totals and place), in one
 * statement; 404 for an unknown code. Answers how many rows went.
 */
export async function eraseReading(db: Database, login: string): Promise<{ login: string; erased: number }> {
  const result = (await db.execute(sql`
    WITH code AS (SELECT id FROM ${accessCodes} WHERE login = ${login}),
      sessions AS (DELETE FROM ${readingSessions} WHERE access_code_id IN (SELECT id FROM code) RETURNING 1),
      days AS (DELETE FROM ${readingDays} WHERE access_code_id IN (SELECT id FROM code) RETURNING 1),
      place AS (DELETE FROM ${readingPlaces} WHERE access_code_id IN (SELECT id FROM code) RETURNING 1)
    SELECT (SELECT count(*) FROM code)::integer AS found,
      ((SELECT count(*) FROM sessions) + (SELECT count(*) FROM days) + (SELECT count(*) FROM place))::integer AS erased`)) as unknown as {
    rows: Array<{ found: number; erased: number }>;
  };
  const [row] = result.rows;
  if (!row || Number(row.found) === 0) throw notFound(`No access code "${login}".`);
  return { login, erased: Number(row.erased) };
}
