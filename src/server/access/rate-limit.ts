/**
 * Rate limits kept in the database, so they hold across server instances, processes and restarts.
 * A limited key (a client address, an account) has one counter row; one statement counts an
 * attempt and answers the count (`INSERT ... ON CONFLICT DO UPDATE ... RETURNING`), so requests
 * sent at once are numbered one by one by the database and never all see "under the limit".
 * A key's window opens at its first attempt and lasts `windowMs`; the next attempt after it opens
 * a new one. Windows over a day old are deleted by the daily retention job.
 *
 * Two kinds of limit, decided on a counted attempt:
 * - `overLimit` (and `take`, which counts and decides): at most `max` attempts a window; beyond
 *   it 429 with Retry-After until the window ends.
 * - `tooSoon`: `free` attempts a window, then each further attempt must wait a growing delay
 *   (1 s, 2 s, 4 s... at most `maxDelayMs` apart): a key that others can make fail (an account
 *   anyone may try to sign in to) slows down but is never locked for a whole window. A refused
 *   attempt is given back (`refundAttempts`), so it does not push the schedule further.
 * Two keys are counted by one statement (`countGated`), and the statements that settle
 * them can run inside another statement (`refundStatement`, `clearStatement`).
 */
import { sql, type SQL } from "../db/orm.ts";
import type { Database } from "../db/types.ts";
import { rateLimitCounters } from "../db/schema.ts";
import { HttpError } from "../http/errors.ts";

export interface Limit {
  bucket: string;
  max: number;
  windowMs: number;
}

export interface SlowedLimit {
  bucket: string;
  /** Attempts a window before any delay. */
  free: number;
  windowMs: number;
  /** The longest delay between two attempts past `free`. */
  maxDelayMs: number;
}

/** Injected clock, so tests can move time. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

export interface Counted {
  bucket: string;
  key: string;
  count: number;
  windowStart: Date;
}

type Key = { bucket: string; key: string };

/**
 * Counting an attempt in SQL: insert the key's counter, or add one to it (starting a new window
 * when the current one is over). `from` selects the row to insert (a VALUES list, or a gated
 * SELECT); the statement answers the count and window.
 */
function upsertCounter(from: SQL, windowMs: number, now: Date, { stopAfter }: { stopAfter?: number } = {}): SQL {
  const cut = new Date(now.getTime() - windowMs);
  // With `stopAfter`, a key already past it in its window is left as it is: no row is written (or
  // answered), so a flood of refused attempts writes nothing.
  const unless = stopAfter === undefined ? sql`` : sql` WHERE c."window_start" <= ${cut} OR c."count" <= ${stopAfter}`;
  return sql`INSERT INTO ${rateLimitCounters} AS c ("bucket", "key", "window_start", "count") ${from}
    ON CONFLICT ("bucket", "key") DO UPDATE SET
      "count" = CASE WHEN c."window_start" <= ${cut} THEN 1 ELSE c."count" + 1 END,
      "window_start" = CASE WHEN c."window_start" <= ${cut} THEN ${now}::timestamptz ELSE c."window_start" END${unless}
    RETURNING "count", "window_start"`;
}

type CountedRow = { count: number; window_start: Date | string };
const counted = (key: Key, row: CountedRow): Counted => ({ ...key, count: Number(row.count), windowStart: new Date(row.window_start) });

/** Counts one attempt for `key` and answers its count in its current window: one statement. */
export async function countAttempt(db: Database, windowMs: number, key: Key, now = systemClock()): Promise<Counted> {
  const from = sql`VALUES (${key.bucket}, ${key.key}, ${now}::timestamptz, 1)`;
  const result = (await db.execute(upsertCounter(from, windowMs, now))) as unknown as { rows: CountedRow[] };
  return counted(key, result.rows[0]!);
}

/**
 * Counts an attempt for `first` and, only when that count is within `firstMax`, for `second`:
 * one statement. So attempts refused by the first limit never touch the second key (requests
 * sent at once for one account from one address cannot use up the account's attempts).
 */
export async function countGated(db: Database, windowMs: number, first: Key, firstMax: number, second: Key, now = systemClock()): Promise<[Counted, Counted | null]> {
  const firstFrom = sql`VALUES (${first.bucket}, ${first.key}, ${now}::timestamptz, 1)`;
  const secondFrom = sql`SELECT ${second.bucket}, ${second.key}, ${now}::timestamptz, 1 FROM first WHERE first."count" <= ${firstMax}`;
  const result = (await db.execute(sql`
    WITH first AS (${upsertCounter(firstFrom, windowMs, now)}),
    second AS (${upsertCounter(secondFrom, windowMs, now)})
    SELECT f."count", f."window_start", s."count" AS second_count, s."window_start" AS second_window
    FROM first f LEFT JOIN second s ON true`)) as unknown as { rows: Array<CountedRow & { second_count: number | null; second_window: Date | string | null }> };
  const row = result.rows[0]!;
  return [counted(first, row), row.second_count === null ? null : counted(second, { count: row.second_count, window_start: row.second_window! })];
}

/** The statement that gives back one attempt of a key (to run alone, or inside another statement). */
export function refundStatement(bucket: string, key: string): SQL {
  return sql`UPDATE ${rateLimitCounters} SET "count" = greatest("count" - 1, 0) WHERE "bucket" = ${bucket} AND "key" = ${key}`;
}

/** The statement that forgets a key's attempts (after a successful login, say). */
export function clearStatement(bucket: string, key: string): SQL {
  return sql`DELETE FROM ${rateLimitCounters} WHERE "bucket" = ${bucket} AND "key" = ${key}`;
}

/** Gives back one attempt of each key (attempts counted that did not happen): one statement. */
export async function refundAttempts(db: Database, keys: readonly Key[]): Promise<void> {
  await db.execute(sql`
    UPDATE ${rateLimitCounters} SET "count" = greatest("count" - 1, 0)
    WHERE ("bucket", "key") IN (${sql.join(
      keys.map(({ bucket, key }) => sql`(${bucket}, ${key})`),
      sql`, `,
    )})`);
}

/**
 * The statement that counts an attempt of `key` against `limit` (to run alone, or as a CTE inside
 * another statement): it answers the count and window, or no row once the key is past its limit
 * in the window, when it writes nothing (so a script hammering a limited call costs no writes).
 */
export function limitStatement(limit: Limit, key: string, now: Date): SQL {
  const from = sql`VALUES (${limit.bucket}, ${key}, ${now}::timestamptz, 1)`;
  return upsertCounter(from, limit.windowMs, now, { stopAfter: limit.max });
}

/** The window a key's counter opened at, read before the statement it runs in (a Retry-After for an attempt limitStatement left uncounted). */
export function limitWindowStatement(limit: Limit, key: string): SQL {
  return sql`SELECT "window_start" FROM ${rateLimitCounters} WHERE "bucket" = ${limit.bucket} AND "key" = ${key}`;
}

/**
 * The 429 for an attempt limitStatement answered `count` for (null: none, as the key was already
 * past its limit in the window that opened at `windowStart`), or null when it is within the limit.
 */
export function limitRefusal(limit: Limit, count: number | null, windowStart: Date | string | null, now: Date): HttpError | null {
  const opened = windowStart === null ? now : new Date(windowStart);
  return overLimit(limit, { bucket: limit.bucket, key: "", count: count ?? limit.max + 1, windowStart: opened }, now);
}

/** Counts an attempt; 429 with Retry-After when it is beyond `limit.max` in the window (see limitStatement). */
export async function take(db: Database, limit: Limit, key: string, now = systemClock()): Promise<void> {
  const result = (await db.execute(sql`
    WITH counted AS (${limitStatement(limit, key, now)})
    SELECT (SELECT "count" FROM counted) AS "count",
      coalesce((SELECT "window_start" FROM counted), (${limitWindowStatement(limit, key)})) AS "window_start"`)) as unknown as {
    rows: Array<{ count: number | null; window_start: Date | string | null }>;
  };
  const row = result.rows[0]!;
  const refusal = limitRefusal(limit, row.count === null ? null : Number(row.count), row.window_start, now);
  if (refusal) throw refusal;
}

/** The 429 for an attempt beyond `limit.max` in its window, or null. */
export function overLimit(limit: Limit, { count, windowStart }: Counted, now: Date): HttpError | null {
  return count <= limit.max ? null : tooMany(windowStart.getTime() + limit.windowMs - now.getTime());
}

/**
 * How long after its window opened attempt number `n` may be made: nothing for the first `free`,
 * then delays of 1 s, 2 s, 4 s... (at most `maxDelayMs`) added up.
 */
export function earliestAttemptMs(limit: SlowedLimit, n: number): number {
  let total = 0;
  for (let i = 1; i <= n - limit.free; i++) total += Math.min(1000 * 2 ** (i - 1), limit.maxDelayMs);
  return total;
}

/**
 * The 429 for an attempt that comes sooner than the slowed schedule allows (with the growing wait
 * in Retry-After), or null. The caller gives such an attempt back.
 */
export function tooSoon(limit: SlowedLimit, { count, windowStart }: Counted, now: Date): HttpError | null {
  // Within the free attempts there is nothing to wait for (and requests sent at once may each have
  // a clock a moment behind the window another one opened).
  if (count <= limit.free) return null;
  const wait = windowStart.getTime() + earliestAttemptMs(limit, count) - now.getTime();
  return wait > 0 ? tooMany(wait) : null;
}

function tooMany(waitMs: number): HttpError {
  const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
  return new HttpError(429, "rate_limited", `Too many attempts. Try again in ${formatWait(retryAfter)}.`, {
    "retry-after": String(retryAfter),
  });
}

function formatWait(seconds: number): string {
  if (seconds === 1) return "1 second";
  return seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;
}
