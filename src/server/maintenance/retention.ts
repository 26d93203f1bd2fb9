/**
 * What is kept, and for how long (README: "What is kept"). Run daily: by a scheduled Netlify
 * Function (netlify/functions/retention.ts) and by the local host's timer.
 * - scans never completed: deleted `unfinishedScanDays` after they started (their answers with
 *   them); completed scans are submissions the operator keeps until they delete them;
 * - chapters and subsections deleted in the admin panel: removed for good `deletedContentDays`
 *   after their 24-hour restore window ends;
 * - uploaded photos no subsection uses (live or still restorable): removed `unusedPhotoDays` after
 *   they were stored;
 * - expired sign-in sessions (and those of access codes past their end date), the record of why a
 *   session ended once it could no longer have lasted (30 days), rate-limit windows
 *   over a day old, and the cache purges done and long read by other servers;
 * - revisions older than 90 days, except each item's last 50 (src/server/admin/revisions.ts);
 * - a member's reading (issue 23): their reading sessions `readingDays` after they ended, and
 *   their daily totals `readingTotalsDays` after the day;
 * - lead webhook deliveries that ended (delivered or given up) over 90 days ago: the log's
 *   purpose is the recent past, and each holds a copy of a lead's name and email.
 * Each step is one statement; a step that fails leaves the others to run, and is named in the
 * report's `failed`.
 */
import { and, eq, inArray, isNotNull, lt, lte, or, sql } from "../db/orm.ts";
import type { Database } from "../db/types.ts";
import {
  accessCodes,
  assessmentSessions,
  cachePurges,
  chapters,
  contentRevisions,
  rateLimitCounters,
  readingDays,
  readingSessions,
  sessionEndings,
  sessions,
  subsections,
  webhookDeliveries,
} from "../db/schema.ts";
import { utcDay } from "../reading/streak.ts";
import { SESSION_TTL_SECONDS } from "../auth/session.ts";
import { RESTORE_WINDOW_MS } from "../admin/chapters.ts";
import { pruneRevisions } from "../admin/revisions.ts";
import { config, type RetentionPolicy } from "../config.ts";
import { photoIdOf, photoStore, type PhotoStore } from "../uploads/photo-store.ts";
import { failureLine } from "../http/log-failure.ts";
import { eraseEndedNotebooks } from "../notebook/notebook.ts";
import { eraseEndedConversations, queueOverdueEvent } from "../messages/direct-line.ts";

const DAY_MS = 24 * 3600 * 1000;
/** How long the webhook delivery log keeps a finished delivery. */
export const WEBHOOK_LOG_DAYS = 90;

export type { RetentionPolicy };

export interface RetentionReport {
  unfinishedScans: number;
  chapters: number;
  subsections: number;
  photos: number;
  sessions: number;
  sessionEndings: number;
  rateLimitWindows: number;
  cachePurges: number;
  revisions: number;
  webhookDeliveries: number;
  readingSessions: number;
  readingDays: number;
  /** Notebooks of codes whose access ended more than 30 days ago (issue 32). */
  notebooks: number;
  /** Conversations of codes whose access ended more than 30 days ago (issue 43). */
  conversations: number;
  /** Overdue conversations named in the day's `messages.overdue` webhook event (issue 43). */
  overdueConversations: number;
  /** The steps that failed, each with its reason (they run again next time). */
  failed: string[];
}

const ago = (now: Date, ms: number) => new Date(now.getTime() - ms);

export async function runRetention(
  db: Database,
  { now = new Date(), policy = config().retention, store = photoStore() }: { now?: Date; policy?: RetentionPolicy; store?: PhotoStore } = {},
): Promise<RetentionReport> {
  const removedFor = ago(now, RESTORE_WINDOW_MS + policy.deletedContentDays * DAY_MS);
  const failed: string[] = [];
  /** Runs one step; a failure is reported and counts as nothing removed. */
  const step = async (name: string, run: () => Promise<unknown[] | number>): Promise<number> => {
    try {
      const removed = await run();
      return typeof removed === "number" ? removed : removed.length;
    } catch (error) {
      failed.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      return 0;
    }
  };
  return {
    unfinishedScans: await step("unfinished scans", () =>
      db
        .delete(assessmentSessions)
        .where(and(eq(assessmentSessions.completed, "false"), lt(assessmentSessions.startedAt, ago(now, policy.unfinishedScanDays * DAY_MS))))
        .returning({ id: assessmentSessions.id }),
    ),
    subsections: await step("deleted subsections", () =>
      db
        .delete(subsections)
        .where(and(isNotNull(subsections.deletedAt), lt(subsections.deletedAt, removedFor)))
        .returning({ id: subsections.id }),
    ),
    chapters: await step("deleted chapters", () =>
      db
        .delete(chapters)
        .where(and(isNotNull(chapters.deletedAt), lt(chapters.deletedAt, removedFor)))
        .returning({ id: chapters.id }),
    ),
    sessions: await step("expired sessions", () =>
      db
        .delete(sessions)
        .where(
          or(
            lt(sessions.expire, now),
            // Sessions of a code past its end date ended with it (src/server/auth/session.ts).
            inArray(sessions.accessCodeId, db.select({ id: accessCodes.id }).from(accessCodes).where(lte(accessCodes.expiresAt, now))),
          ),
        )
        .returning({ sid: sessions.sid }),
    ),
    sessionEndings: await step("session endings", () =>
      // Kept as long as the ended session could have lasted: its cookie cannot outlive that.
      db.delete(sessionEndings).where(lt(sessionEndings.endedAt, ago(now, SESSION_TTL_SECONDS.reader * 1000))).returning({ sidHash: sessionEndings.sidHash }),
    ),
    rateLimitWindows: await step("rate-limit windows", () =>
      db.delete(rateLimitCounters).where(lt(rateLimitCounters.windowStart, ago(now, DAY_MS))).returning({ key: rateLimitCounters.key }),
    ),
    cachePurges: await step("cache purges", () =>
      // Done ones only: an open purge is a job still to be done (src/server/publish/cache-purge.ts).
      db.delete(cachePurges).where(and(isNotNull(cachePurges.doneAt), lt(cachePurges.createdAt, ago(now, 3600 * 1000)))).returning({ id: cachePurges.id }),
    ),
    revisions: await step("old revisions", () => pruneRevisions(db, now)),
    webhookDeliveries: await step("webhook deliveries", () =>
      db
        .delete(webhookDeliveries)
        .where(and(sql`${webhookDeliveries.status} <> 'pending'`, lt(webhookDeliveries.createdAt, ago(now, WEBHOOK_LOG_DAYS * DAY_MS))))
        .returning({ id: webhookDeliveries.id }),
    ),
    readingSessions: await step("reading sessions", () =>
      db.delete(readingSessions).where(lt(readingSessions.lastSeenAt, ago(now, policy.readingDays * DAY_MS))).returning({ id: readingSessions.id }),
    ),
    readingDays: await step("daily reading totals", () =>
      db
        .delete(readingDays)
        .where(lt(readingDays.day, utcDay(ago(now, policy.readingTotalsDays * DAY_MS))))
        .returning({ day: readingDays.day }),
    ),
    photos: await step("unused photos", () => removeUnusedPhotos(db, store, ago(now, policy.unusedPhotoDays * DAY_MS))),
    notebooks: await step("notebooks of ended codes", () => eraseEndedNotebooks(db, now)),
    conversations: await step("conversations of ended codes", () => eraseEndedConversations(db, now)),
    overdueConversations: await step("the day's overdue conversations, to the webhooks", () => queueOverdueEvent(db, now)),
    failed,
  };
}

/**
 * Deletes photos stored before `storedBefore` that no subsection row (even a deleted one) names,
 * as `/uploads/{name}` or by a full address ending so.
 */
async function removeUnusedPhotos(db: Database, store: PhotoStore, storedBefore: Date): Promise<number> {
  const candidates = (await store.list()).filter((photo) => photo.storedAt < storedBefore);
  if (candidates.length === 0) return 0;
  // A photo a kept revision or a pending draft names counts as used: restoring or publishing it brings it back.
  const named = (await db.execute(sql`
    SELECT ${subsections.photo} AS photo FROM ${subsections} WHERE ${subsections.photo} LIKE '%/uploads/%'
    UNION SELECT ${subsections.draft} ->> 'photo' FROM ${subsections} WHERE ${subsections.draft} ->> 'photo' LIKE '%/uploads/%'
    UNION SELECT ${contentRevisions.fields} ->> 'photo' FROM ${contentRevisions}
      WHERE ${contentRevisions.subsectionId} IS NOT NULL AND ${contentRevisions.fields} ->> 'photo' LIKE '%/uploads/%'`)) as unknown as {
    rows: Array<{ photo: string }>;
  };
  const used = new Set(named.rows.map((row) => photoIdOf(row.photo.slice(row.photo.lastIndexOf("/uploads/") + "/uploads/".length))));
  // A photo's narrower copies go with it, and stay with it.
  const unused = candidates.filter((photo) => !used.has(photoIdOf(photo.name)));
  for (const photo of unused) await store.delete(photo.name);
  return unused.length;
}

/** Runs retention now and then every `everyMs` (the local host); answers a function that stops it. */
export function scheduleRetention(db: Database, log: (line: string) => void, everyMs = 6 * 3600 * 1000): () => void {
  const run = () =>
    runRetention(db).then(
      ({ failed, ...counts }) => {
        const removed = Object.entries(counts).filter(([, n]) => n > 0);
        if (removed.length > 0) log(`Retention: removed ${removed.map(([what, n]) => `${n} ${what}`).join(", ")}.`);
        for (const reason of failed) log(`Retention step failed (it runs again later): ${reason}`);
      },
      (error: unknown) => log(failureLine("Retention failed (it runs again later)", error)),
    );
  const first = setTimeout(run, 60 * 1000);
  const timer = setInterval(run, everyMs);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
