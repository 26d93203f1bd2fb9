/**
 * Working the delivery queue: claim due deliveries, send each, record the outcome.
 *
 * Claiming is one statement: the due rows are picked FOR UPDATE SKIP LOCKED and given a lease
 * (`lease_until`), so two workers at once (two servers, the scheduled function and a request)
 * never take the same row, and a row whose worker died is taken again once its lease has ended.
 * The lease (60 s) is far longer than a request may take (10 s, then it is aborted), so by the time
 * a lease ends the attempt that held it is over: a receiver that answered 2xx is never sent the
 * row again. An outcome is recorded only while the lease is still the worker's own.
 *
 * What remains is at-least-once in one case no queue can close: the receiver answers 2xx and the
 * database is unreachable before the answer is recorded. Each request carries `X-Lead-Delivery`
 * (the delivery's id) and the body's `id` (the scan's), for a receiver to ignore a repeat.
 */
import { lookup } from "node:dns/promises";
import { sql } from "../db/orm.ts";
import type { Database } from "../db/types.ts";
import { webhookDeliveries } from "../db/schema.ts";
import { nextAttemptAfterFailure } from "./backoff.ts";
import { SIGNATURE_HEADER, signatureHeader } from "./signature.ts";
import { isPrivateAddress } from "./webhook-url.ts";

export const LEASE_MS = 60_000;
export const REQUEST_TIMEOUT_MS = 10_000;
const BATCH = 10;

export interface ClaimedDelivery {
  id: number;
  body: string;
  attempts: number;
  giveUpAt: Date;
  leaseUntil: Date;
  url: string;
  secret: string;
}

export interface QueueOptions {
  now?: () => Date;
  fetch?: typeof fetch;
  /** Refuse receivers that resolve to a private address (production). */
  publicOnly?: boolean;
  timeoutMs?: number;
}

/**
 * Takes up to `limit` due deliveries (or only those of one scan) for this worker, in one
 * statement: each gets a lease and one more attempt counted.
 */
export async function claimDue(
  db: Database,
  now: Date,
  { limit = BATCH, sessionId, deliveryId }: { limit?: number; sessionId?: string; deliveryId?: number } = {},
): Promise<ClaimedDelivery[]> {
  const at = now.toISOString();
  const leaseUntil = new Date(now.getTime() + LEASE_MS).toISOString();
  const result = (await db.execute(sql`
    WITH due AS (
      SELECT "id" FROM ${webhookDeliveries}
      WHERE "status" = 'pending' AND "next_attempt_at" <= ${at}::timestamptz
        AND ("lease_until" IS NULL OR "lease_until" <= ${at}::timestamptz)
        ${sessionId ? sql`AND "session_id" = ${sessionId}::uuid` : sql``}
        ${deliveryId ? sql`AND "id" = ${deliveryId}` : sql``}
      ORDER BY "next_attempt_at", "id"
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE ${webhookDeliveries} AS d
    SET "lease_until" = ${leaseUntil}::timestamptz, "attempts" = d."attempts" + 1, "last_attempt_at" = ${at}::timestamptz
    FROM due, "lead_webhooks" AS w
    WHERE d."id" = due."id" AND w."id" = d."webhook_id"
    RETURNING d."id", d."body", d."attempts", d."give_up_at", d."lease_until", w."url", w."secret"`)) as unknown as {
    rows: Array<{ id: number; body: string; attempts: number; give_up_at: string | Date; lease_until: string | Date; url: string; secret: string }>;
  };
  return result.rows.map((r) => ({
    id: Number(r.id),
    body: r.body,
    attempts: Number(r.attempts),
    giveUpAt: new Date(r.give_up_at),
    leaseUntil: new Date(r.lease_until),
    url: r.url,
    secret: r.secret,
  }));
}

export type AttemptOutcome = { ok: true; status: number } | { ok: false; status: number | null; error: string };

/** Sends one delivery, signed; never throws. */
export async function sendDelivery(delivery: ClaimedDelivery, now: Date, options: QueueOptions = {}): Promise<AttemptOutcome> {
  const { fetch: send = fetch, publicOnly = false, timeoutMs = REQUEST_TIMEOUT_MS } = options;
  try {
    if (publicOnly) {
      const host = new URL(delivery.url).hostname;
      const addresses = await lookup(host.replace(/^\[|\]$/g, ""), { all: true });
      if (addresses.some((a) => isPrivateAddress(a.address))) {
        return { ok: false, status: null, error: `${host} resolves to a private address; refused.` };
      }
    }
    const timestamp = Math.floor(now.getTime() / 1000);
    const response = await send(delivery.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "TheSystemBook-Webhooks/1",
        [SIGNATURE_HEADER]: signatureHeader(delivery.secret, timestamp, delivery.body),
        "x-lead-delivery": String(delivery.id),
      },
      body: delivery.body,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    // The answer's body is not needed; reading a little of it frees the connection.
    await response.body?.cancel().catch(() => {});
    if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status };
    return { ok: false, status: response.status, error: `The receiver answered ${response.status}${response.statusText ? ` ${response.statusText}` : ""}.` };
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    if (name === "TimeoutError" || name === "AbortError") return { ok: false, status: null, error: `No answer within ${timeoutMs / 1000} s.` };
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return { ok: false, status: null, error: `${error instanceof Error ? error.message : String(error)}${cause}`.slice(0, 500) };
  }
}

/** Records an attempt's outcome, only while this worker's lease still holds; answers whether it did. */
export async function recordOutcome(db: Database, delivery: ClaimedDelivery, outcome: AttemptOutcome, now: Date): Promise<"delivered" | "retry" | "failed" | "lost-lease"> {
  const lease = delivery.leaseUntil.toISOString();
  let state: "delivered" | "retry" | "failed";
  let values: Record<string, unknown>;
  if (outcome.ok) {
    state = "delivered";
    values = { status: "delivered", deliveredAt: now, lastStatus: outcome.status, lastError: null, leaseUntil: null };
  } else {
    const next = nextAttemptAfterFailure(delivery.attempts, now, delivery.giveUpAt);
    state = next ? "retry" : "failed";
    values = { status: next ? "pending" : "failed", nextAttemptAt: next ?? now, lastStatus: outcome.status, lastError: outcome.error, leaseUntil: null };
  }
  const rows = await db
    .update(webhookDeliveries)
    .set(values)
    .where(sql`${webhookDeliveries.id} = ${delivery.id} AND ${webhookDeliveries.leaseUntil} = ${lease}::timestamptz`)
    .returning({ id: webhookDeliveries.id });
  return rows.length > 0 ? state : "lost-lease";
}

export interface QueueReport {
  delivered: number;
  retrying: number;
  failed: number;
}

/**
 * Works the queue until nothing is due or `budgetMs` has passed (a scheduled function has 30 s):
 * claims a batch, sends it (at once), records each outcome, and again.
 */
export async function workQueue(
  db: Database,
  options: QueueOptions & { budgetMs?: number; sessionId?: string; deliveryId?: number } = {},
): Promise<QueueReport> {
  const clock = options.now ?? (() => new Date());
  const report: QueueReport = { delivered: 0, retrying: 0, failed: 0 };
  const started = Date.now();
  for (;;) {
    const claimed = await claimDue(db, clock(), { sessionId: options.sessionId, deliveryId: options.deliveryId });
    if (claimed.length === 0) break;
    await Promise.all(
      claimed.map(async (delivery) => {
        const outcome = await sendDelivery(delivery, clock(), options);
        const state = await recordOutcome(db, delivery, outcome, clock());
        if (state === "delivered") report.delivered++;
        else if (state === "retry") report.retrying++;
        else if (state === "failed") report.failed++;
      }),
    );
    if (claimed.length < BATCH || Date.now() - started > (options.budgetMs ?? 20_000)) break;
  }
  return report;
}
