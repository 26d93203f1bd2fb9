/**
 * Purging the CDN's cached chapter pages after a content change (src/server/http/cdn.ts).
 * - On Netlify: Netlify's purge API by cache tag (`purgeCache` from @netlify/functions; the
 *   runtime gives functions the token and SITE_ID).
 * - Locally: the host's cache (src/server/host/cdn-cache.ts) drops the tagged answers at once,
 *   and the purge is written to the database, so every other server sharing it drops them too
 *   (`watchPurges`, a few times a second).
 */
import { gt, lt, sql } from "../db/orm.ts";
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

/** Purges every cached answer built from the book's content. Throws when the purge fails. */
export async function purgeBookPages(db: Database): Promise<void> {
  const tags = [BOOK_CACHE_TAG];
  if (config().platform === "netlify-functions") {
    const { purgeCache } = await import("@netlify/functions");
    await purgeCache({ tags });
    return;
  }
  localPurge?.(tags);
  await db.insert(cachePurges).values({ tags });
}

/** How long purge records are kept for servers that were briefly unreachable. */
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
    if (++checks % 3000 === 0) await db.delete(cachePurges).where(lt(cachePurges.createdAt, new Date(Date.now() - KEEP_PURGES_MS)));
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
