/**
 * Recording a signed-in client's reading and summing it up for their profile. A heartbeat comes
 * from an open chapter page every 30 seconds while it is visible; a gap of more than 30 minutes
 * starts a new reading session; one heartbeat adds at most 60 seconds, so a page left open in a
 * background tab or a sleeping laptop adds nothing.
 */
import { and, desc, eq, gt } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { readingSessions } from "../db/schema.ts";
import { readingDays, utcDay } from "./streak.ts";

export const SESSION_GAP_MS = 30 * 60 * 1000;
export const MAX_HEARTBEAT_SECONDS = 60;

export async function recordHeartbeat(db: Database, accessCodeId: number, chapterId: number | null, now = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    const [open] = await tx
      .select()
      .from(readingSessions)
      .where(and(eq(readingSessions.accessCodeId, accessCodeId), gt(readingSessions.lastSeenAt, new Date(now.getTime() - SESSION_GAP_MS))))
      .orderBy(desc(readingSessions.lastSeenAt))
      .limit(1)
      .for("update");
    if (open) {
      const elapsed = Math.max(0, Math.round((now.getTime() - open.lastSeenAt.getTime()) / 1000));
      await tx
        .update(readingSessions)
        .set({ lastSeenAt: now, seconds: open.seconds + Math.min(elapsed, MAX_HEARTBEAT_SECONDS), chapterId: chapterId ?? open.chapterId })
        .where(eq(readingSessions.id, open.id));
    } else {
      await tx.insert(readingSessions).values({ accessCodeId, chapterId, startedAt: now, lastSeenAt: now });
    }
  });
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
