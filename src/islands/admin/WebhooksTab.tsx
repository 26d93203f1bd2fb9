/**
 * The Webhooks tab (issue 15): the addresses each completed scan is sent to (with the signing
 * secret to give the receiver), a test button, and the delivery log with "Send again".
 */
import { useStore } from "@nanostores/react";
import { useEffect, useState, type SubmitEvent } from "react";
import {
  $deliveries,
  $webhooks,
  $webhooksError,
  $webhooksLoaded,
  addWebhook,
  loadWebhooks,
  removeWebhook,
  sendAgain,
  sendTest,
  setWebhookActive,
  type LeadWebhook,
  type WebhookDelivery,
} from "../../stores/admin-webhooks.ts";
import ConfirmDialog, { type Confirmation } from "./ConfirmDialog.tsx";
import Field from "./Field.tsx";
import LoadError from "./LoadError.tsx";
import Skeleton from "./Skeleton.tsx";
import { badge, card, formatTime, input, muted, primary, secondary } from "./ui.ts";

export default function WebhooksTab() {
  const webhooks = useStore($webhooks);
  const deliveries = useStore($deliveries);
  const error = useStore($webhooksError);
  const loaded = useStore($webhooksLoaded);
  const [url, setUrl] = useState("");
  const [problem, setProblem] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);

  useEffect(() => {
    void loadWebhooks();
  }, []);

  async function onAdd(event: SubmitEvent) {
    event.preventDefault();
    if (url.trim() === "") return setProblem("Enter the address the receiver gave you (https://...).");
    setPending(true);
    const outcome = await addWebhook(url.trim());
    setPending(false);
    if ("problem" in outcome) return setProblem(outcome.problem);
    setProblem(undefined);
    setUrl("");
  }

  const askRemove = (webhook: LeadWebhook) =>
    setConfirmation({
      title: "Remove webhook?",
      message: `${webhook.url} will get no more scans, and its delivery log is removed.`,
      confirmLabel: "Remove",
      action: () => removeWebhook(webhook.id),
    });

  return (
    <div className="space-y-6">
      <section className={card} aria-labelledby="add-webhook-title">
        <h2 id="add-webhook-title" className="font-serif text-lg">
          Send each completed scan to a webhook
        </h2>
        <p className={`${muted} mt-1`}>
          When someone completes the scan, their name, email, score, level, category scores and answers are sent to every address here, for an
          email or CRM automation (a Zapier, Make or n8n &ldquo;catch hook&rdquo; gives you such an address). A lead that does not get through is
          tried again for 24 hours; a test is sent once.
        </p>
        <p role="note" className="mt-3 rounded-md border border-[var(--color-accent)] p-3 text-sm" data-testid="webhook-privacy-note">
          Leads sent here leave this site. The privacy policy lists who personal data is shared with: make sure it names the service that
          receives them (for example Zapier, or your CRM) before you add its address.
        </p>
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer font-medium">How the receiver can check that a delivery came from this site</summary>
          <div className={`${muted} mt-2 space-y-2`}>
            <p>
              Each delivery is a POST with a JSON body and two headers: <code>X-Lead-Delivery</code>, the delivery&rsquo;s number (the same on every
              attempt, so a repeat can be ignored), and <code>X-Lead-Signature</code>, which reads <code>t=&lt;time&gt;,v2=&lt;signature&gt;</code>.
            </p>
            <p>
              The signature is an HMAC-SHA256, keyed with the webhook&rsquo;s signing secret (below, under each address), of the time, a dot, the
              delivery number, a dot and the body exactly as received. The receiver computes the same, compares the two, and refuses a time more than 5
              minutes old. Catch hooks accept deliveries without checking; add the check in a code step where the service allows it.
            </p>
            <p>
              A delivery counts as received when the receiver answers with a 2xx status within 10 seconds. Anything else is a failure, shown in the
              log below with its reason; Send Again sends the same body once more.
            </p>
          </div>
        </details>
        <form className="mt-4 grid items-start gap-4 sm:grid-cols-[1fr_auto]" onSubmit={(e) => void onAdd(e)} noValidate>
          <Field label="Webhook address" hint="The address the receiving service gives you, starting with https://" error={problem}>
            <input className={input} type="url" value={url} onChange={(e) => setUrl(e.target.value)} autoComplete="off" inputMode="url" />
          </Field>
          <button type="submit" className={`${primary} sm:mt-6`} disabled={pending}>
            {pending ? "Adding..." : "Add Webhook"}
          </button>
        </form>
      </section>

      {error && <LoadError what="webhooks" error={error} onRetry={loadWebhooks} />}

      <section aria-labelledby="webhooks-title">
        <h2 id="webhooks-title" className="font-serif text-lg">
          {error || !loaded ? "Webhooks" : `Webhooks (${webhooks.length})`}
        </h2>
        {!loaded ? (
          <Skeleton label="Loading webhooks..." rows={1} className="mt-2" />
        ) : error ? null : webhooks.length === 0 ? (
          <p className={`${muted} mt-2`}>No webhooks yet: completed scans are only in Assessment Submissions.</p>
        ) : (
          <ul className="mt-3 space-y-3" aria-label="Webhooks">
            {webhooks.map((webhook) => (
              <WebhookCard key={webhook.id} webhook={webhook} onRemove={() => askRemove(webhook)} />
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="deliveries-title">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="deliveries-title" className="font-serif text-lg">
            Delivery log
          </h2>
          <button type="button" className={secondary} onClick={() => void loadWebhooks()}>
            Refresh
          </button>
        </div>
        {!loaded ? (
          <Skeleton label="Loading the delivery log..." rows={2} height="h-10" className="mt-2" />
        ) : error ? null : deliveries.length === 0 ? (
          <p className={`${muted} mt-2`}>Nothing sent yet.</p>
        ) : (
          <DeliveryTable deliveries={deliveries} />
        )}
      </section>
      <ConfirmDialog confirmation={confirmation} onClose={() => setConfirmation(null)} />
    </div>
  );
}

function WebhookCard({ webhook, onRemove }: { webhook: LeadWebhook; onRemove: () => void }) {
  const [showSecret, setShowSecret] = useState(false);
  return (
    <li className={card}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="break-all font-mono text-sm">{webhook.url}</p>
          <p className={muted}>
            <span className={badge}>{webhook.active ? "On" : "Paused"}</span> Added {formatTime(webhook.createdAt)}
          </p>
          {!webhook.active && (
            <p className={`${muted} mt-1`}>
              Paused: nothing is sent to it, and deliveries that were waiting for a retry were stopped. Turn it on to send tests and new scans again.
            </p>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className={secondary}
            onClick={() => void sendTest(webhook.id)}
            disabled={!webhook.active}
            aria-label={`Send a test to ${webhook.url}`}
          >
            Send a Test
          </button>
          <button type="button" className={secondary} onClick={() => void setWebhookActive(webhook.id, !webhook.active)}>
            {webhook.active ? "Pause" : "Turn On"}
          </button>
          <button type="button" className={secondary} onClick={onRemove} aria-label={`Remove ${webhook.url}`}>
            Remove
          </button>
        </div>
      </div>
      <div className="mt-3 flex flex-wrap items-center gap-3 text-sm">
        <span className="text-[var(--color-muted)]">Signing secret</span>
        <span className="select-all break-all font-mono" data-testid="webhook-secret">
          {showSecret ? webhook.secret : "whsec_" + "•".repeat(12)}
        </span>
        <button type="button" className={secondary} aria-pressed={showSecret} onClick={() => setShowSecret(!showSecret)}>
          {showSecret ? "Hide" : "Show"}
        </button>
      </div>
    </li>
  );
}

const STATUS_TEXT: Record<WebhookDelivery["status"], string> = { pending: "Retrying", delivered: "Delivered", failed: "Failed" };

function DeliveryTable({ deliveries }: { deliveries: WebhookDelivery[] }) {
  return (
    <div className="relative mt-3 overflow-x-auto rounded-lg border border-[var(--color-line)]" tabIndex={0} role="region" aria-label="Delivery log, scrollable">
      <table className="w-full min-w-[48rem] border-collapse bg-[var(--color-panel)] text-left text-sm" aria-label="Delivery log">
        <thead className="border-b border-[var(--color-line)] text-[var(--color-muted)]">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">Sent</th>
            <th scope="col" className="px-3 py-2 font-medium">Lead</th>
            <th scope="col" className="px-3 py-2 font-medium">To</th>
            <th scope="col" className="px-3 py-2 font-medium">Status</th>
            <th scope="col" className="px-3 py-2 font-medium">Attempts</th>
            <th scope="col" className="px-3 py-2 font-medium">Last error</th>
            <th scope="col" className="px-3 py-2 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((d) => (
            <tr key={d.id} className="border-b border-[var(--color-line)] last:border-0" data-testid="delivery-row">
              <td className="px-3 py-2">{formatTime(d.createdAt)}</td>
              <td className="px-3 py-2">{d.kind === "test" ? "Test" : d.kind === "message" ? "Direct line event (no words)" : (d.name ?? "—")}</td>
              <td className="max-w-[14rem] truncate px-3 py-2 font-mono" title={d.url}>
                {d.url}
              </td>
              <td className="px-3 py-2">
                {STATUS_TEXT[d.status]}
                {d.status === "pending" && d.nextAttemptAt && <span className="block text-xs text-[var(--color-muted)]">next {formatTime(d.nextAttemptAt)}</span>}
              </td>
              <td className="px-3 py-2">{d.attempts}</td>
              <td className="px-3 py-2">{d.lastError ?? "—"}</td>
              <td className="px-3 py-2 text-right">
                <button type="button" className={secondary} onClick={() => void sendAgain(d.id)} aria-label={`Send Again: delivery ${d.id}`}>
                  Send Again
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
