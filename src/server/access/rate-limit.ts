/**
 * Rate limits kept in the database, so they hold across server instances and restarts: each
 * counted event is a row; a key over its limit within the window is refused with 429 and
 * Retry-After.
 */
import { and, asc, count, eq, gte, lt } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { rateLimitHits } from "../db/schema.ts";
import { HttpError } from "../http/errors.ts";

export interface Limit {
  bucket: string;
  max: number;
  windowMs: number;
}

/** Injected clock, so tests can move time. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

/** Throws 429 when `key` has already reached `limit.max` events in the window. */
export async function assertUnderLimit(db: Database, limit: Limit, key: string, now = systemClock()): Promise<void> {
  const since = new Date(now.getTime() - limit.windowMs);
  const where = and(eq(rateLimitHits.bucket, limit.bucket), eq(rateLimitHits.key, key), gte(rateLimitHits.at, since));
  const [row] = await db.select({ n: count() }).from(rateLimitHits).where(where);
  if (row!.n < limit.max) return;
  const [oldest] = await db.select({ at: rateLimitHits.at }).from(rateLimitHits).where(where).orderBy(asc(rateLimitHits.at)).limit(1);
  const retryAfter = Math.max(1, Math.ceil(((oldest?.at.getTime() ?? now.getTime()) + limit.windowMs - now.getTime()) / 1000));
  throw new HttpError(429, "rate_limited", `Too many attempts. Try again in ${formatWait(retryAfter)}.`, {
    "retry-after": String(retryAfter),
  });
}

/** Counts one event for `key`, and clears the bucket's events that are past every window. */
export async function recordHit(db: Database, limit: Limit, key: string, now = systemClock()): Promise<void> {
  await db.insert(rateLimitHits).values({ bucket: limit.bucket, key, at: now });
  if (Math.random() < 0.05) {
    await db
      .delete(rateLimitHits)
      .where(and(eq(rateLimitHits.bucket, limit.bucket), lt(rateLimitHits.at, new Date(now.getTime() - limit.windowMs))));
  }
}

/** Forgets `key`'s events (after a successful login, say). */
export async function clearHits(db: Database, limit: Limit, key: string): Promise<void> {
  await db.delete(rateLimitHits).where(and(eq(rateLimitHits.bucket, limit.bucket), eq(rateLimitHits.key, key)));
}

function formatWait(seconds: number): string {
  return seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;
}
