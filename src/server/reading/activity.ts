/**
 * Recording a signed-in member's reading (issue 23) and summing it up for their profile. An open,
 * visible chapter page sends a heartbeat every 30 seconds (and one as it is left) naming the
 * chapter and the subsection being read (src/lib/reading-terms.ts defines the words).
 *
 * One heartbeat, in one statement:
 * - a chapter or subsection that is not live answers `not_found`, and one the member's level does
 *   not open `forbidden`: nothing is recorded;
 * - the member's place (reading_places, one row per code) becomes this chapter and subsection;
 * - it counts only when the code's last counted heartbeat is 15 seconds old or more (a flood
 *   counts once per 15 s); then it extends the reading session still open (seen within 30
 *   minutes), or starts one, by the time since that session's last heartbeat, at most 60 s, and
 *   adds the same seconds to the day's row of reading_days (code, chapter, UTC day);
 * - reaching the chapter's last subsection marks the day's row finished.
 * The place row is locked first, so heartbeats of one code at the same moment are counted one by
 * one, on every PostgreSQL.
 */
import { eq, sql } from "../db/orm.ts";
import type { Database } from "../db/types.ts";
import { chapters, readingDays, readingPlaces, readingSessions, subsections } from "../db/schema.ts";
import { LEVELS, type Level } from "../../lib/levels.ts";
import { HEARTBEAT_THROTTLE_SECONDS, MAX_HEARTBEAT_SECONDS } from "../../lib/reading-terms.ts";
import { readingDays as streakOf, utcDay } from "./streak.ts";
import { limitRefusal, limitStatement, limitWindowStatement, type Limit } from "../access/rate-limit.ts";

export const SESSION_GAP_MS = 30 * 60 * 1000;

export interface Heartbeat {
  /** The chapter's slug. */
  slug: string;
  /** The subsection being read (its slug, the anchor on the page), or none above the first. */
  section?: string | null;
}

/** What became of a heartbeat: counted, kept as the place only (throttled), or refused. */
export type HeartbeatOutcome = "counted" | "throttled" | "not_found" | "forbidden";

/** Whether the row under `alias` is live: published and not deleted. */
const live = (alias: string) => sql.raw(`${alias}."deleted_at" IS NULL AND ${alias}."status" = 'published'`);

/**
 * Heartbeats per access code: a page sends one every 30 s while visible and one as it is hidden or
 * shown, so a member reading on three devices at once, turning pages quickly, stays far below
 * this; a script flooding the call is refused (429) without a write once past it.
 */
export const HEARTBEAT_LIMIT: Limit = { bucket: "reading-heartbeat-code", max: 90, windowMs: 5 * 60 * 1000 };

/**
 * Records a heartbeat in one statement: counted against the code's HEARTBEAT_LIMIT (a 429 is
 * thrown past it, and nothing else is written), the place kept when it moved or the throttle
 * passed, time added to the session and the day.
 */
export async function recordHeartbeat(
  db: Database,
  member: { accessCodeId: number; level: Level },
  { slug, section = null }: Heartbeat,
  now = new Date(),
): Promise<HeartbeatOutcome> {
  const code = member.accessCodeId;
  const limitKey = String(code);
  const since = new Date(now.getTime() - SESSION_GAP_MS);
  const throttle = new Date(now.getTime() - HEARTBEAT_THROTTLE_SECONDS * 1000);
  const rank = LEVELS.indexOf(member.level);
  const result = (await db.execute(sql`
    WITH beat AS (${limitStatement(HEARTBEAT_LIMIT, limitKey, now)}),
    target AS (
      SELECT c.id AS chapter_id, s.id AS subsection_id,
        array_position(ARRAY['Operator','Architect','Mastermind'], coalesce(c.level, 'Operator')) - 1 <= ${rank} AS allowed,
        CASE WHEN ${section}::text IS NULL
          THEN NOT EXISTS (SELECT 1 FROM ${subsections} n WHERE n.chapter_id = c.id AND ${live("n")})
          ELSE NOT EXISTS (SELECT 1 FROM ${subsections} n WHERE n.chapter_id = c.id AND ${live("n")}
            AND (n."order", n.id) > (s."order", s.id))
        END AS finishes
      FROM ${chapters} c
      LEFT JOIN ${subsections} s ON s.chapter_id = c.id AND s.slug = ${section}::text AND ${live("s")}
      WHERE c.slug = ${slug} AND ${live("c")}
    ), valid AS (
      SELECT * FROM target WHERE allowed AND (${section}::text IS NULL OR subsection_id IS NOT NULL)
        AND EXISTS (SELECT 1 FROM beat WHERE beat."count" <= ${HEARTBEAT_LIMIT.max})
    ), place AS (
      INSERT INTO ${readingPlaces} AS p (access_code_id, chapter_id, subsection_id, updated_at, counted_at, counted)
      SELECT ${code}, chapter_id, subsection_id, ${now}, ${now}, true FROM valid
      ON CONFLICT (access_code_id) DO UPDATE SET
        chapter_id = excluded.chapter_id, subsection_id = excluded.subsection_id, updated_at = excluded.updated_at,
        counted = p.counted_at <= ${throttle},
        counted_at = CASE WHEN p.counted_at <= ${throttle} THEN excluded.counted_at ELSE p.counted_at END
      -- Written only when the place moved or the throttle has passed: a flood rewrites nothing.
      WHERE p.counted_at <= ${throttle} OR p.chapter_id <> excluded.chapter_id OR p.subsection_id IS DISTINCT FROM excluded.subsection_id
      RETURNING counted
    ), open AS (
      SELECT id, last_seen_at FROM ${readingSessions}
      WHERE access_code_id = ${code} AND last_seen_at > ${since} AND coalesce((SELECT counted FROM place), false)
      ORDER BY last_seen_at DESC LIMIT 1 FOR UPDATE
    ), added AS (
      SELECT coalesce((SELECT least(greatest(0, round(extract(epoch FROM (${now}::timestamptz - last_seen_at)))), ${MAX_HEARTBEAT_SECONDS})::integer FROM open), 0) AS seconds
    ), extended AS (
      UPDATE ${readingSessions} AS r SET last_seen_at = ${now}, seconds = r.seconds + (SELECT seconds FROM added), chapter_id = (SELECT chapter_id FROM valid)
      FROM open WHERE r.id = open.id
      RETURNING r.id
    ), started AS (
      INSERT INTO ${readingSessions} (access_code_id, chapter_id, started_at, last_seen_at)
      SELECT ${code}, chapter_id, ${now}, ${now} FROM valid
      WHERE coalesce((SELECT counted FROM place), false) AND NOT EXISTS (SELECT 1 FROM extended)
    ), day AS (
      INSERT INTO ${readingDays} AS d (access_code_id, chapter_id, day, seconds, finished, last_at)
      SELECT ${code}, chapter_id, ${utcDay(now)}::date, (SELECT seconds FROM added), finishes, ${now} FROM valid
      WHERE coalesce((SELECT counted FROM place), false) OR finishes
      ON CONFLICT (access_code_id, chapter_id, day) DO UPDATE SET
        seconds = d.seconds + excluded.seconds, finished = d.finished OR excluded.finished, last_at = greatest(d.last_at, excluded.last_at)
      WHERE coalesce((SELECT counted FROM place), false) OR NOT d.finished
    )
    SELECT (SELECT count(*) FROM target)::integer AS found, (SELECT bool_and(allowed) FROM target) AS allowed,
      (SELECT count(*) FROM valid)::integer AS valid, (SELECT counted FROM place) AS counted,
      (SELECT "count" FROM beat) AS beats, coalesce((SELECT "window_start" FROM beat), (${limitWindowStatement(HEARTBEAT_LIMIT, limitKey)})) AS beats_since`)) as unknown as {
    rows: Array<{ found: number; allowed: boolean | null; valid: number; counted: boolean | null; beats: number | null; beats_since: Date | string | null }>;
  };
  const [row] = result.rows;
  const refusal = row && limitRefusal(HEARTBEAT_LIMIT, row.beats === null ? null : Number(row.beats), row.beats_since, now);
  if (refusal) throw refusal;
  if (!row || row.found === 0) return "not_found";
  if (!row.allowed) return "forbidden";
  if (row.valid === 0) return "not_found"; // a subsection that is not this chapter's live one
  // (No place row answered: the place had not moved within the throttle, so nothing was written.)
  return row.counted ? "counted" : "throttled";
}

export interface ReadingStats {
  streakDays: number;
  week: boolean[];
  sessions: number;
  averageMinutes: number;
}

/**
 * A member's profile figures: the streak and the week from the daily totals (kept longest); the
 * sessions and their average from the reading sessions kept (RETENTION_READING_DAYS).
 */
export async function readingStats(db: Database, accessCodeId: number, now = new Date()): Promise<ReadingStats> {
  const [days, rows] = await Promise.all([
    db.selectDistinct({ day: readingDays.day }).from(readingDays).where(eq(readingDays.accessCodeId, accessCodeId)),
    db.select({ seconds: readingSessions.seconds }).from(readingSessions).where(eq(readingSessions.accessCodeId, accessCodeId)),
  ]);
  const total = rows.reduce((sum, row) => sum + row.seconds, 0);
  return {
    ...streakOf(
      days.map((row) => row.day),
      now,
    ),
    sessions: rows.length,
    averageMinutes: rows.length === 0 ? 0 : Math.round(total / rows.length / 60),
  };
}

/** Where a member is in the book: the chapter, and the subsection with its number on the page. */
export interface ReadingPlace {
  slug: string;
  title: string;
  level: Level;
  section: string | null;
  sectionTitle: string | null;
  /** The subsection's number as the chapter page shows it (1 for the first). */
  sectionNumber: number | null;
  at: string;
}

/**
 * The member's place, kept from their last heartbeat on any device: null without one, or when its
 * chapter is no longer live or no longer in the member's level. A subsection since removed, or
 * moved to another chapter (perhaps one above the member's level), leaves the chapter's top.
 */
export async function readingPlace(db: Database, member: { accessCodeId: number; level: Level }): Promise<ReadingPlace | null> {
  const result = (await db.execute(sql`
    SELECT c.slug, c.title, coalesce(c.level, 'Operator') AS level, s.slug AS section, s.title AS section_title, p.updated_at AS at,
      (SELECT count(*) FROM ${subsections} n WHERE n.chapter_id = c.id AND ${live("n")} AND (n."order", n.id) <= (s."order", s.id))::integer AS section_number
    FROM ${readingPlaces} p
    JOIN ${chapters} c ON c.id = p.chapter_id AND ${live("c")}
    LEFT JOIN ${subsections} s ON s.id = p.subsection_id AND s.chapter_id = c.id AND ${live("s")}
    WHERE p.access_code_id = ${member.accessCodeId}`)) as unknown as {
    rows: Array<{ slug: string; title: string; level: Level; section: string | null; section_title: string | null; section_number: number; at: Date | string }>;
  };
  const [row] = result.rows;
  if (!row || LEVELS.indexOf(row.level) > LEVELS.indexOf(member.level)) return null;
  return {
    slug: row.slug,
    title: row.title,
    level: row.level,
    section: row.section,
    sectionTitle: row.section_title,
    sectionNumber: row.section ? row.section_number : null,
    at: new Date(row.at).toISOString(),
  };
}
