/**
 * Lead webhooks (issue 15): the addresses completed scans are sent to, and the delivery log.
 * A test or "send again" is sent by the server right after it answers; the log is reloaded a
 * moment later to show the outcome.
 */
import { atom } from "nanostores";
import { ApiError, apiRequest, errorMessage } from "../lib/api-client.ts";
import { notify } from "../lib/notify.ts";
import { isSignedOutError } from "./admin-api.ts";
import { sessionEnded } from "./admin-session.ts";

export interface LeadWebhook {
  id: number;
  url: string;
  secret: string;
  active: boolean;
  createdAt: string;
}

export interface WebhookDelivery {
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
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
}

export const $webhooks = atom<LeadWebhook[]>([]);
export const $deliveries = atom<WebhookDelivery[]>([]);
export const $webhooksError = atom<string | null>(null);
/** Whether the lists have been asked for and answered (or failed) once: until then the tab shows skeletons. */
export const $webhooksLoaded = atom(false);

function failure(error: unknown, description: string): void {
  if (isSignedOutError(error)) return sessionEnded();
  notify({ title: "Error", description, variant: "destructive" });
}

export async function loadWebhooks(): Promise<void> {
  try {
    const [webhooks, deliveries] = await Promise.all([
      apiRequest<LeadWebhook[]>("GET", "/api/admin/webhooks"),
      apiRequest<WebhookDelivery[]>("GET", "/api/admin/webhook-deliveries"),
    ]);
    $webhooks.set(webhooks);
    $deliveries.set(deliveries);
    $webhooksError.set(null);
  } catch (error) {
    if (isSignedOutError(error)) return sessionEnded();
    $webhooksError.set(errorMessage(error));
  } finally {
    $webhooksLoaded.set(true);
  }
}

/** Reloads the log now and again shortly, when a delivery just sent has had time to answer. */
function reloadSoon(): void {
  void loadWebhooks();
  setTimeout(() => void loadWebhooks(), 1500);
}

/** Adds a webhook; answers it (with its secret) or the server's message for the field. */
export async function addWebhook(url: string): Promise<{ webhook: LeadWebhook } | { problem: string }> {
  try {
    const webhook = await apiRequest<LeadWebhook>("POST", "/api/admin/webhooks", { url });
    notify({ title: "Success", description: "Webhook added" });
    await loadWebhooks();
    return { webhook };
  } catch (error) {
    if (isSignedOutError(error)) {
      sessionEnded();
      return { problem: "Signed out." };
    }
    // The server's sentence about the address (or the cap on webhooks) for the field, without its status.
    return { problem: error instanceof ApiError && (error.code === "invalid_webhook_url" || error.code === "too_many_webhooks") ? error.text : errorMessage(error) };
  }
}

export async function removeWebhook(id: number): Promise<void> {
  try {
    await apiRequest("DELETE", `/api/admin/webhooks/${id}`);
    notify({ title: "Success", description: "Webhook removed" });
  } catch (error) {
    failure(error, `Failed to remove webhook: ${errorMessage(error)}`);
  }
  await loadWebhooks();
}

export async function setWebhookActive(id: number, active: boolean): Promise<void> {
  try {
    await apiRequest("PUT", `/api/admin/webhooks/${id}`, { active });
    notify({ title: "Success", description: active ? "Webhook turned on" : "Webhook paused" });
  } catch (error) {
    failure(error, `Failed to change webhook: ${errorMessage(error)}`);
  }
  await loadWebhooks();
}

export async function sendTest(id: number): Promise<void> {
  try {
    await apiRequest("POST", `/api/admin/webhooks/${id}/test`);
    notify({ title: "Test sent", description: "See the delivery log for the receiver's answer." });
  } catch (error) {
    failure(error, `Failed to send a test: ${errorMessage(error)}`);
  }
  reloadSoon();
}

export async function sendAgain(deliveryId: number): Promise<void> {
  try {
    await apiRequest("POST", `/api/admin/webhook-deliveries/${deliveryId}/resend`);
    notify({ title: "Sent again", description: "A new delivery was queued and sent." });
  } catch (error) {
    failure(error, `Failed to send again: ${errorMessage(error)}`);
  }
  reloadSoon();
}
