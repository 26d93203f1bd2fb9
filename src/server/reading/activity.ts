/**
 * Recording a signed-in client's reading and summing it up for their profile. A heartbeat comes
 * from an open chapter page every 30 seconds while it is visible; a gap of more than 30 minutes
 * starts a new reading session; one heartbeat adds at most 60 seconds, so a page left open in a
 * background tab or a sleeping laptop adds nothing.
 */
import { eq, sql } from "../db/orm.ts";
import type { Database } from "../db/types.ts";
import { chapters, readingSessions } from "../db/schema.ts";
import { readingDays, utcDay } from "./streak.ts";

export const SESSION_GAP_MS = 30 * 60 * 1000;
export const MAX_HEARTBEAT_SECONDS = 60;

/**
 * One heartbeat, in one statement: the reading session still open (seen within the gap) is locked
 * and extended, or a new one starts; the chapter is named by its slug (an unknown slug keeps the
 * session's chapter).
 */
export async function recordHeartbeat(db: Database, accessCodeId: number, slug: string, now = new Date()): Promise<void> {
  const since = new Date(now.getTime() - SESSION_GAP_MS);
  await db.execute(sql`
    WITH chapter AS (
      SELECT ${chapters.id} AS id FROM ${chapters} WHERE ${chapters.slug} = ${slug} AND ${chapters.deletedAt} IS NULL AND ${chapters.status} = 'published'
    ), open AS (
      SELECT id, last_seen_at FROM ${readingSessions}
      WHERE access_code_id = ${accessCodeId} AND last_seen_at > ${since}
      ORDER BY last_seen_at DESC LIMIT 1 FOR UPDATE
    ), extended AS (
      UPDATE ${readingSessions} AS r SET
        last_seen_at = ${now},
        seconds = r.seconds + least(greatest(0, round(extract(epoch FROM (${now}::timestamptz - open.last_seen_at)))), ${MAX_HEARTBEAT_SECONDS})::integer,
        chapter_id = coalesce((SELECT id FROM chapter), r.chapter_id)
      FROM open WHERE r.id = open.id
      RETURNING r.id
    )
    INSERT INTO ${readingSessions} (access_code_id, chapter_id, started_at, last_seen_at)
    SELECT ${accessCodeId}, (SELECT id FROM chapter), ${now}, ${now}
    WHERE NOT EXISTS (SELECT 1 FROM extended)`);
}

export interface ReadingStats {
  streakDays: number;
  week: boolean[];
  sessions: number;
  averageMinutes: number;
}

export async function readingStats(db: Database, accessCodeId: number, now = new Date()): Promise<ReadingStats> {
  const rows = await db
    .select({ startedAt: readingSessions.startedAt, lastSeenAt: readingSessions.lastSeenAt, seconds: readingSessions.seconds })
    .from(readingSessions)
    .where(eq(readingSessions.accessCodeId, accessCodeId));
  const days = rows.flatMap((row) => [utcDay(row.startedAt), utcDay(row.lastSeenAt)]);
  const total = rows.reduce((sum, row) => sum + row.seconds, 0);
  return {
    ...readingDays(days, now),
    sessions: rows.length,
    averageMinutes: rows.length === 0 ? 0 : Math.round(total / rows.length / 60),
  };
}
