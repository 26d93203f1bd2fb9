/**
 * Lead webhook deliveries waiting in the database (src/server/leads/delivery-queue.ts), worked
 * by a scheduled Netlify Function every 15 minutes (netlify/functions/lead-webhooks.ts; Netlify
 * stops a scheduled function after 30 s, so a run works for at most 20 s) and by a timer of the local host. A completed scan is also tried at once, after the answer
 * (src/server/api/assessment.ts), so these runs are for retries and for work a stopped server left.
 */
import type { Database } from "../db/types.ts";
import { webhooksInProduction } from "../leads/environment.ts";
import { workQueue, type QueueReport } from "../leads/delivery-queue.ts";
import { failureLine } from "../http/log-failure.ts";

export function runLeadDeliveries(db: Database, budgetMs = 20_000): Promise<QueueReport> {
  return workQueue(db, { publicOnly: webhooksInProduction(), budgetMs });
}

/** Works the queue every `everyMs` (the local host), first soon after start; answers a function that stops it. */
export function scheduleLeadDeliveries(db: Database, log: (line: string) => void, everyMs = 15_000): () => void {
  let running = false;
  const run = () => {
    if (running) return;
    running = true;
    runLeadDeliveries(db)
      .then(
        ({ delivered, retrying, failed }) => {
          if (delivered + retrying + failed > 0) log(`Lead webhooks: ${delivered} delivered, ${retrying} to retry, ${failed} given up.`);
        },
        (error: unknown) => log(failureLine("Lead webhooks: the queue could not be worked (it is tried again shortly)", error)),
      )
      .finally(() => (running = false));
  };
  const first = setTimeout(run, 2_000);
  const timer = setInterval(run, everyMs);
  first.unref();
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
