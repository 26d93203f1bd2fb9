/**
 * Lead webhooks from the admin panel (issue 15; README "Lead webhooks"):
 *   GET    /api/admin/webhooks                            [{id, url, secret, active, createdAt}]
 *   POST   /api/admin/webhooks {url}                      201 the webhook, with its new signing secret (400
 *                                                          invalid_webhook_url: what is wrong with the address, in a sentence)
 *   PUT    /api/admin/webhooks/{id} {active}              200 the webhook (a paused one gets no new scans, and its waiting deliveries end)
 *   DELETE /api/admin/webhooks/{id}                       204; its log goes with it
 *   POST   /api/admin/webhooks/{id}/test                  202 {deliveryId}: a sample lead, sent at once and only once (409 while paused)
 *   GET    /api/admin/webhook-deliveries                  the newest deliveries (the log)
 *   POST   /api/admin/webhook-deliveries/{id}/resend      202 {deliveryId}: the same body again, as a new delivery (409 while paused)
 */
import { z } from "../../../lib/zod.ts";
import { requireAdmin } from "../../access/admin.ts";
import { adminNow } from "../../admin/clock.ts";
import { loadAssessment } from "../../assessment/content.ts";
import { database, keepConnectionUntil } from "../../db/index.ts";
import { HttpError, notFound } from "../../http/errors.ts";
import { readJson } from "../../http/request.ts";
import { json, route } from "../../http/respond.ts";
import { workQueue } from "../../leads/delivery-queue.ts";
import { siteAddress, webhooksInProduction } from "../../leads/environment.ts";
import { samplePayload } from "../../leads/payload.ts";
import { checkWebhookUrl, WEBHOOK_URL_MAX_LENGTH } from "../../leads/webhook-url.ts";
import {
  createWebhook,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  queueDelivery,
  resendDelivery,
  setWebhookActive,
  TooManyWebhooks,
  WebhookPaused,
} from "../../leads/webhooks.ts";
import { deferAfterResponse } from "../../runtime/request-scope.ts";
import type { Database } from "../../db/types.ts";
import { parseId } from "./ids.ts";

const createBody = z.object({ url: z.string({ error: "must be the receiver's address, as text" }).max(WEBHOOK_URL_MAX_LENGTH * 2) });
const activeBody = z.object({ active: z.boolean({ error: "must be true or false" }) });

const noWebhook = (id: number) => notFound(`No webhook ${id}; reload the list.`);

/** Queues a delivery; a paused webhook is a 409 telling the admin to turn it on first. */
async function queueOrRefuse(queue: () => Promise<number | null>): Promise<number | null> {
  try {
    return await queue();
  } catch (error) {
    if (error instanceof WebhookPaused) throw new HttpError(409, "webhook_paused", error.message);
    throw error;
  }
}

/**
 * Sends one queued delivery right away, after the answer: the operator sees the outcome in the
 * log a moment later; if it fails it is retried like any other.
 */
function sendSoon(db: Database, deliveryId: number): void {
  const work = workQueue(db, { deliveryId, publicOnly: webhooksInProduction(), budgetMs: 15_000 });
  keepConnectionUntil(work.catch(() => {}));
  deferAfterResponse(work);
}

export const adminWebhooks = route({
  GET: async (request) => {
    await requireAdmin(request);
    return json(await listWebhooks(await database()));
  },
  POST: async (request) => {
    await requireAdmin(request);
    const { url } = await readJson(request, createBody, 8 * 1024);
    const checked = checkWebhookUrl(url, { production: webhooksInProduction() });
    // A sentence for the field, with its own code (issue 22: 6).
    if (!checked.ok) throw new HttpError(400, "invalid_webhook_url", checked.problem);
    try {
      return json(await createWebhook(await database(), checked.url), { status: 201 });
    } catch (error) {
      if (error instanceof TooManyWebhooks) throw new HttpError(409, "too_many_webhooks", error.message);
      throw error;
    }
  },
});

export const adminWebhook = route<[id: string]>({
  PUT: async (request, idText) => {
    await requireAdmin(request);
    const id = parseId(idText);
    const { active } = await readJson(request, activeBody, 1024);
    const webhook = await setWebhookActive(await database(), id, active);
    if (!webhook) throw noWebhook(id);
    return json(webhook);
  },
  DELETE: async (request, idText) => {
    await requireAdmin(request);
    const id = parseId(idText);
    if (!(await deleteWebhook(await database(), id))) throw noWebhook(id);
    return new Response(null, { status: 204, headers: { "cache-control": "no-store" } });
  },
});

export const adminWebhookTest = route<[id: string]>({
  POST: async (request, idText) => {
    await requireAdmin(request);
    const id = parseId(idText);
    const db = await database();
    const now = adminNow();
    const body = JSON.stringify(samplePayload(loadAssessment(), siteAddress(), now));
    const deliveryId = await queueOrRefuse(() => queueDelivery(db, { webhookId: id, sessionId: null, kind: "test", body }, now));
    if (deliveryId === null) throw noWebhook(id);
    sendSoon(db, deliveryId);
    return json({ deliveryId }, { status: 202 });
  },
});

export const adminWebhookDeliveries = route({
  GET: async (request) => {
    await requireAdmin(request);
    return json(await listDeliveries(await database()));
  },
});

export const adminWebhookResend = route<[id: string]>({
  POST: async (request, idText) => {
    await requireAdmin(request);
    const id = parseId(idText);
    const db = await database();
    const deliveryId = await queueOrRefuse(() => resendDelivery(db, id, adminNow()));
    if (deliveryId === null) throw notFound(`No delivery ${id}; reload the log.`);
    sendSoon(db, deliveryId);
    return json({ deliveryId }, { status: 202 });
  },
});
