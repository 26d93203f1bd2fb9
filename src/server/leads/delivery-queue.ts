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
 * (the delivery's id, covered by the signature) and the body's `id` (the scan's), for a receiver
 * to ignore a repeat.
 *
 * A paused webhook is sent nothing: its due rows are not claimed, and pausing it ends the rows
 * still waiting (webhooks.ts); an attempt already under way when it is paused is not retried.
 */
import { sql } from "../db/orm.ts";
import type { Database } from "../db/types.ts";
import { leadWebhooks, webhookDeliveries } from "../db/schema.ts";
import { nextAttemptAfterFailure } from "./backoff.ts";
import { postToReceiver, type ReceiverAnswer, type Resolver } from "./receiver-request.ts";
import { DELIVERY_HEADER, SIGNATURE_HEADER, signatureHeader } from "./signature.ts";

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
  /** Refuse receivers that resolve to a private address (production). */
  publicOnly?: boolean;
  timeoutMs?: number;
  /** How receivers' host names are looked up (DNS by default; tests give their own). */
  resolve?: Resolver;
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
        AND EXISTS (SELECT 1 FROM ${leadWebhooks} AS w WHERE w."id" = ${webhookDeliveries}."webhook_id" AND w."active")
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

export type AttemptOutcome = ReceiverAnswer;

/**
 * Sends one delivery, signed over its id and body, to the address its host name was checked at
 * (receiver-request.ts); never throws.
 */
export async function sendDelivery(delivery: ClaimedDelivery, now: Date, options: QueueOptions = {}): Promise<AttemptOutcome> {
  const { publicOnly = false, timeoutMs = REQUEST_TIMEOUT_MS, resolve } = options;
  const timestamp = Math.floor(now.getTime() / 1000);
  const id = String(delivery.id);
  return postToReceiver(delivery.url, {
    headers: {
      "content-type": "application/json",
      "user-agent": "TheSystemBook-Webhooks/1",
      [SIGNATURE_HEADER]: signatureHeader(delivery.secret, timestamp, id, delivery.body),
      [DELIVERY_HEADER]: id,
    },
    body: delivery.body,
    publicOnly,
    timeoutMs,
    resolve,
  });
}

/** Added to an attempt's error when its webhook was paused meanwhile: it is not tried again. */
export const PAUSED_NOTE = "Not retried: the webhook is paused.";

/**
 * Records an attempt's outcome, only while this worker's lease still holds; answers whether it did.
 * A failure is retried only while the webhook is on: if it was paused during the attempt, the
 * delivery is marked failed (a 2xx is still recorded as delivered: it was).
 */
export async function recordOutcome(db: Database, delivery: ClaimedDelivery, outcome: AttemptOutcome, now: Date): Promise<"delivered" | "retry" | "failed" | "lost-lease"> {
  const lease = delivery.leaseUntil.toISOString();
  const mine = sql`d."id" = ${delivery.id} AND d."lease_until" = ${lease}::timestamptz`;
  if (outcome.ok) {
    const rows = await db
      .update(webhookDeliveries)
      .set({ status: "delivered", deliveredAt: now, lastStatus: outcome.status, lastError: null, leaseUntil: null })
      .where(sql`${webhookDeliveries.id} = ${delivery.id} AND ${webhookDeliveries.leaseUntil} = ${lease}::timestamptz`)
      .returning({ id: webhookDeliveries.id });
    return rows.length > 0 ? "delivered" : "lost-lease";
  }
  const next = nextAttemptAfterFailure(delivery.attempts, now, delivery.giveUpAt);
  // Still wanted: the webhook is on, and pausing it did not end this delivery meanwhile.
  const wanted = sql`(d."status" = 'pending' AND EXISTS (SELECT 1 FROM ${leadWebhooks} AS w WHERE w."id" = d."webhook_id" AND w."active"))`;
  const result = (await db.execute(sql`
    UPDATE ${webhookDeliveries} AS d
    SET "status" = CASE WHEN ${next !== null}::boolean AND ${wanted} THEN 'pending' ELSE 'failed' END,
        "next_attempt_at" = ${(next ?? now).toISOString()}::timestamptz,
        "last_status" = ${outcome.status}::integer,
        "last_error" = CASE WHEN ${wanted} THEN ${outcome.error} ELSE ${`${outcome.error} ${PAUSED_NOTE}`} END,
        "lease_until" = NULL
    WHERE ${mine}
    RETURNING d."status"`)) as unknown as { rows: Array<{ status: string }> };
  const row = result.rows[0];
  if (!row) return "lost-lease";
  return row.status === "pending" ? "retry" : "failed";
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
