/**
 * Purging the CDN's cached chapter pages after a content change (src/server/http/cdn.ts). Every
 * purge is a job, a row of cache_purges:
 * - On Netlify the row is written before the purge is tried, through Netlify's purge API by cache
 *   tag (`purgeCache` from @netlify/functions; the runtime gives functions the token and SITE_ID).
 *   A purge that fails stays open and is tried again, with backoff (`purgeBackoffMs`), by the next
 *   save or Publish (which try every open purge at once) and by the scheduled function
 *   (netlify/functions/scheduled-publishing.ts, `runPurgeJobs`), until it succeeds. The publish
 *   status shows it meanwhile (state.ts). Were it never to succeed, the CDN's lifetime cap
 *   (CDN_MAX_AGE_S) still drops every cached page within the hour.
 * - Locally the host's cache (src/server/host/cdn-cache.ts) drops the tagged answers at once (it
 *   cannot fail), and the row, written done, tells every other server sharing the database to
 *   drop them too (`watchPurges`, a few times a second).
 */
import { and, asc, desc, gt, inArray, isNotNull, isNull, lt, lte, sql } from "../db/orm.ts";
import { config } from "../config.ts";
import { cachePurges } from "../db/schema.ts";
import type { Database } from "../db/types.ts";
import { BOOK_CACHE_TAG } from "../http/cdn.ts";

type Purge = (tags: readonly string[]) => void;

let localPurge: Purge | undefined;

/** The local host's cache (or none). */
export function useLocalPurge(purge: Purge | undefined): void {
  localPurge = purge;
}

/**
 * Pauses before a failed call to the purge API is made again while the save waits for it: a
 * passing failure (a 503 for a moment) should not leave a withdrawn chapter public even briefly.
 */
export const PURGE_RETRY_DELAYS_MS = [250, 1000];

/** The wait before an open purge is tried again after `attempts` tries: 1, 2, 4, 8, then every 15 minutes. */
export function purgeBackoffMs(attempts: number): number {
  return Math.min(60_000 * 2 ** Math.max(attempts - 1, 0), 15 * 60_000);
}

/** What one round of purge work did. */
export interface PurgeRun {
  /** Open purges that are done now. */
  purged: number;
  /** Open purges that failed again (each is tried again later). */
  failed: number;
  /** Why the purge API call failed, if it did. */
  error: string | null;
}

/**
 * Purges every cached answer built from the book's content: records the purge, then (on Netlify)
 * tries it together with every purge still open, before answering. A failed purge does not throw:
 * it stays open, to be tried again, and the publish status shows it. Throws only when the database
 * cannot record it.
 */
export async function purgeBookPages(db: Database, now = new Date(), retryDelaysMs: readonly number[] = PURGE_RETRY_DELAYS_MS): Promise<PurgeRun> {
  const tags = [BOOK_CACHE_TAG];
  if (config().platform !== "netlify-functions") {
    localPurge?.(tags);
    await db.insert(cachePurges).values({ tags, createdAt: now, doneAt: now, attempts: 1, nextAttemptAt: now });
    return { purged: 1, failed: 0, error: null };
  }
  await db.insert(cachePurges).values({ tags, createdAt: now, nextAttemptAt: now });
  return runPurgeJobs(db, { now, all: true, retryDelaysMs });
}

/**
 * Tries the open purges: those due (`all`: every one), in one call to the purge API for all their
 * tags. Done on success; otherwise each is tried again after its backoff. The scheduled function
 * runs this (locally the host's timer), so a purge that failed goes through once the API is back.
 */
export async function runPurgeJobs(
  db: Database,
  { now = new Date(), all = false, retryDelaysMs = [] }: { now?: Date; all?: boolean; retryDelaysMs?: readonly number[] } = {},
): Promise<PurgeRun> {
  const open = await db
    .select({ id: cachePurges.id, tags: cachePurges.tags })
    .from(cachePurges)
    .where(all ? isNull(cachePurges.doneAt) : and(isNull(cachePurges.doneAt), lte(cachePurges.nextAttemptAt, now)))
    .orderBy(asc(cachePurges.id))
    .limit(500);
  if (open.length === 0) return { purged: 0, failed: 0, error: null };
  const ids = open.map((job) => job.id);
  const tags = [...new Set(open.flatMap((job) => job.tags))];
  try {
    await sendPurge(tags, retryDelaysMs);
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    console.error(`Could not purge the cached chapter pages (tried again later): ${reason}`);
    // Each job waits by its own count of tries (it may be older than the others).
    const failed = await db
      .update(cachePurges)
      .set({
        attempts: sql`${cachePurges.attempts} + 1`,
        lastError: reason,
        nextAttemptAt: sql`${now}::timestamptz + least(interval '1 minute' * power(2, ${cachePurges.attempts}), interval '15 minutes')`,
      })
      .where(and(inArray(cachePurges.id, ids), isNull(cachePurges.doneAt)))
      .returning({ id: cachePurges.id });
    return { purged: 0, failed: failed.length, error: reason };
  }
  const done = await db
    .update(cachePurges)
    .set({ doneAt: now, attempts: sql`${cachePurges.attempts} + 1`, lastError: null })
    .where(and(inArray(cachePurges.id, ids), isNull(cachePurges.doneAt)))
    .returning({ id: cachePurges.id });
  return { purged: done.length, failed: 0, error: null };
}

/** One purge of `tags` at the CDN, tried again after each of `retryDelaysMs`; throws when the last try fails. */
async function sendPurge(tags: string[], retryDelaysMs: readonly number[]): Promise<void> {
  if (config().platform !== "netlify-functions") {
    localPurge?.(tags);
    return;
  }
  const { purgeCache } = await import("@netlify/functions");
  for (let attempt = 0; ; attempt++) {
    try {
      return await purgeCache({ tags });
    } catch (error) {
      const delay = retryDelaysMs[attempt];
      if (delay === undefined) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/** The purges as the publish status shows them. */
export interface CachePurgeView {
  /** done: every purge went through; pending: one is being tried; failed: one failed and waits to be tried again. */
  state: "done" | "pending" | "failed";
  /** When the oldest purge still open was asked for. */
  since: string | null;
  /** Tries of the open purge tried most. */
  attempts: number;
  lastError: string | null;
  /** When the next try is due (the scheduled function makes it, at the latest 15 minutes after). */
  nextAttemptAt: string | null;
  /** When the last purge went through. */
  doneAt: string | null;
}

export async function readCachePurgeView(db: Database): Promise<CachePurgeView> {
  const open = await db.select().from(cachePurges).where(isNull(cachePurges.doneAt)).orderBy(asc(cachePurges.id)).limit(500);
  const [last] = await db
    .select({ doneAt: cachePurges.doneAt })
    .from(cachePurges)
    .where(isNotNull(cachePurges.doneAt))
    .orderBy(desc(cachePurges.doneAt))
    .limit(1);
  const doneAt = last?.doneAt?.toISOString() ?? null;
  if (open.length === 0) return { state: "done", since: null, attempts: 0, lastError: null, nextAttemptAt: null, doneAt };
  const failed = open.filter((job) => job.attempts > 0);
  const latestFailure = failed.reduce<(typeof failed)[number] | undefined>((a, b) => (!a || b.nextAttemptAt > a.nextAttemptAt ? b : a), undefined);
  return {
    state: failed.length > 0 ? "failed" : "pending",
    since: open[0]!.createdAt.toISOString(),
    attempts: Math.max(...open.map((job) => job.attempts)),
    lastError: latestFailure?.lastError ?? null,
    nextAttemptAt: failed.length > 0 ? new Date(Math.min(...failed.map((job) => job.nextAttemptAt.getTime()))).toISOString() : null,
    doneAt,
  };
}

/** How long done purge records are kept for servers that were briefly unreachable (open ones stay until done). */
const KEEP_PURGES_MS = 24 * 3600 * 1000;

/**
 * Calls `onPurge` with the tags of every purge another server records from now on, checking
 * every `intervalMs`. Answers a function that stops watching.
 */
export async function watchPurges(db: Database, onPurge: Purge, intervalMs = 200): Promise<() => Promise<void>> {
  const [latest] = await db.select({ id: sql<number>`coalesce(max(${cachePurges.id}), 0)` }).from(cachePurges);
  let seen = Number(latest?.id ?? 0);
  let checks = 0;
  let running: Promise<void> | undefined;
  const check = async () => {
    const rows = await db.select().from(cachePurges).where(gt(cachePurges.id, seen)).orderBy(cachePurges.id);
    for (const row of rows) {
      seen = Math.max(seen, row.id);
      onPurge(row.tags);
    }
    if (++checks % 3000 === 0) {
      await db.delete(cachePurges).where(and(isNotNull(cachePurges.doneAt), lt(cachePurges.createdAt, new Date(Date.now() - KEEP_PURGES_MS))));
    }
  };
  const timer = setInterval(() => {
    running ??= check()
      .catch(() => {}) // the database being away for a moment is no reason to stop watching
      .finally(() => (running = undefined));
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
