/**
 * Lead webhooks and their delivery log (the admin panel's Webhooks tab). Queuing a scan's
 * deliveries runs inside the transaction that completes the scan, so a completed scan always has
 * its deliveries queued, and a failed completion queues none.
 */
import { and, desc, eq, sql } from "../db/orm.ts";
import type { Database } from "../db/types.ts";
import { leadWebhooks, webhookDeliveries } from "../db/schema.ts";
import { RETRY_WINDOW_MS } from "./backoff.ts";
import { newWebhookSecret } from "./signature.ts";
import type { LeadPayload } from "./payload.ts";

/** Enough for a CRM, a mailing tool and a spare; no list to page through. */
export const MAX_WEBHOOKS = 10;
/** How many deliveries the log shows. */
export const DELIVERY_LOG_SIZE = 100;

export interface Webhook {
  id: number;
  url: string;
  secret: string;
  active: boolean;
  createdAt: Date;
}

export interface Delivery {
  id: number;
  webhookId: number;
  url: string;
  sessionId: string | null;
  kind: "lead" | "test" | "message";
  name: string | null;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  lastAttemptAt: Date | null;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  createdAt: Date;
}

export class TooManyWebhooks extends Error {}
/** A test or "send again" for a paused webhook: nothing is sent to it until it is on. */
export class WebhookPaused extends Error {}

export async function listWebhooks(db: Database): Promise<Webhook[]> {
  return db.select().from(leadWebhooks).orderBy(leadWebhooks.id);
}

/** Adds a webhook with a new secret; at most MAX_WEBHOOKS (counted under a lock on the table's rows). */
export async function createWebhook(db: Database, url: string): Promise<Webhook> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`LOCK TABLE ${leadWebhooks} IN SHARE ROW EXCLUSIVE MODE`);
    const [{ n }] = (await tx.select({ n: sql<number>`count(*)::int` }).from(leadWebhooks)) as [{ n: number }];
    if (n >= MAX_WEBHOOKS) throw new TooManyWebhooks(`At most ${MAX_WEBHOOKS} webhooks; remove one first.`);
    const [row] = await tx.insert(leadWebhooks).values({ url, secret: newWebhookSecret() }).returning();
    return row!;
  });
}

/** Removes a webhook and its log; answers whether it existed. */
export async function deleteWebhook(db: Database, id: number): Promise<boolean> {
  return (await db.delete(leadWebhooks).where(eq(leadWebhooks.id, id)).returning({ id: leadWebhooks.id })).length > 0;
}

/** What the log says of a delivery that pausing its webhook ended. */
export const STOPPED_BY_PAUSE = "Stopped: the webhook was paused.";

/**
 * Turns a webhook on or off; null when there is none. An inactive one gets no new scans, and
 * pausing it ends its deliveries still waiting for a (re)try at once: they are marked failed
 * ("Send again" sends one anew once it is on). Turning it on again does not revive them.
 */
export async function setWebhookActive(db: Database, id: number, active: boolean): Promise<Webhook | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx.update(leadWebhooks).set({ active }).where(eq(leadWebhooks.id, id)).returning();
    if (!row) return null;
    if (!active) {
      await tx.execute(sql`
        UPDATE ${webhookDeliveries}
        SET "status" = 'failed', "last_error" = concat_ws(' ', "last_error", ${STOPPED_BY_PAUSE}::text)
        WHERE "webhook_id" = ${id} AND "status" = 'pending'`);
    }
    return row;
  });
}

/**
 * Queues `payload` for every active webhook; run it in the completing transaction. Answers how many.
 * The webhooks are read FOR SHARE: a pause waits for this transaction, then ends what it queued.
 */
export async function queueLeadDeliveries(tx: Database, sessionId: string, payload: LeadPayload, now: Date): Promise<number> {
  const body = JSON.stringify(payload);
  const giveUpAt = new Date(now.getTime() + RETRY_WINDOW_MS);
  const result = (await tx.execute(sql`
    INSERT INTO ${webhookDeliveries} ("webhook_id", "session_id", "kind", "body", "next_attempt_at", "give_up_at", "created_at")
    SELECT ${leadWebhooks.id}, ${sessionId}::uuid, 'lead', ${body}, ${now.toISOString()}::timestamptz, ${giveUpAt.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
    FROM ${leadWebhooks} WHERE ${leadWebhooks.active}
    FOR SHARE
    RETURNING "id"`)) as unknown as { rows: unknown[] };
  return result.rows.length;
}

/**
 * Queues one delivery of `body` to one webhook (a test, or "send again"): a lead is retried for
 * RETRY_WINDOW_MS, a test is tried once. Null when the webhook is
 * gone; throws WebhookPaused when it is paused (read FOR SHARE, as in queueLeadDeliveries).
 */
export async function queueDelivery(
  db: Database,
  values: { webhookId: number; sessionId: string | null; kind: "lead" | "test" | "message"; body: string },
  now: Date,
): Promise<number | null> {
  return db.transaction(async (tx) => {
    const [hook] = await tx.select({ active: leadWebhooks.active }).from(leadWebhooks).where(eq(leadWebhooks.id, values.webhookId)).for("share");
    if (!hook) return null;
    if (!hook.active) throw new WebhookPaused("This webhook is paused: turn it on to send to it.");
    const [row] = await tx
      .insert(webhookDeliveries)
      // A test is tried once and its outcome reported (issue 22: 6): the operator is watching the
      // log, and a day of retries would only repeat its failure there.
      .values({ ...values, nextAttemptAt: now, createdAt: now, giveUpAt: values.kind === "test" ? now : new Date(now.getTime() + RETRY_WINDOW_MS) })
      .returning({ id: webhookDeliveries.id });
    return row!.id;
  });
}

/** "Send again": a new delivery of the same body to the same webhook. Null when there is no such delivery. */
export async function resendDelivery(db: Database, id: number, now: Date): Promise<number | null> {
  const [old] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  if (!old) return null;
  return queueDelivery(db, { webhookId: old.webhookId, sessionId: old.sessionId, kind: old.kind as Delivery["kind"], body: old.body }, now);
}

/** The newest deliveries, for the log. */
export async function listDeliveries(db: Database, { webhookId, limit = DELIVERY_LOG_SIZE }: { webhookId?: number; limit?: number } = {}): Promise<Delivery[]> {
  const rows = await db
    .select({
      id: webhookDeliveries.id,
      webhookId: webhookDeliveries.webhookId,
      url: leadWebhooks.url,
      sessionId: webhookDeliveries.sessionId,
      kind: webhookDeliveries.kind,
      name: sql<string | null>`${webhookDeliveries.body}::jsonb ->> 'name'`,
      status: webhookDeliveries.status,
      attempts: webhookDeliveries.attempts,
      lastStatus: webhookDeliveries.lastStatus,
      lastError: webhookDeliveries.lastError,
      lastAttemptAt: webhookDeliveries.lastAttemptAt,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
      deliveredAt: webhookDeliveries.deliveredAt,
      createdAt: webhookDeliveries.createdAt,
    })
    .from(webhookDeliveries)
    .innerJoin(leadWebhooks, eq(leadWebhooks.id, webhookDeliveries.webhookId))
    .where(and(webhookId ? eq(webhookDeliveries.webhookId, webhookId) : undefined))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
  return rows.map((r) => ({
    ...r,
    kind: r.kind as Delivery["kind"],
    status: r.status as Delivery["status"],
    nextAttemptAt: r.status === "pending" ? r.nextAttemptAt : null,
  }));
}
