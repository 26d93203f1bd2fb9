/**
 * Scheduled publishing (issue 14): drafts whose publishing time has come are published, then the
 * change goes out as an edit's does (purge, and the build hook in production when the chapter
 * list changed). Run by a scheduled Netlify Function (netlify/functions/scheduled-publishing.ts,
 * every 15 minutes) and by the local host's timer (every minute). Two runs at once publish each draft once
 * (src/server/admin/drafts.ts: publishDue).
 */
import { publishDue, type DuePublishing } from "../admin/drafts.ts";
import type { Database } from "../db/types.ts";
import { schedulePublish } from "../publish/publisher.ts";

export async function runScheduledPublishing(db: Database, now = new Date()): Promise<DuePublishing> {
  const result = await publishDue(db, now);
  if (result.published.length > 0) await schedulePublish(db, now);
  return result;
}

/** Runs scheduled publishing every `everyMs` (the local host); answers a function that stops it. */
export function schedulePublishing(db: Database, log: (line: string) => void, everyMs = 60 * 1000): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    runScheduledPublishing(db)
      .then(
        ({ published, failed }) => {
          if (published.length > 0) log(`Scheduled publishing: published ${published.map(({ kind, id }) => `${kind} ${id}`).join(", ")}.`);
          for (const reason of failed) log(`Scheduled publishing could not publish (it tries again next run): ${reason}`);
        },
        (error: unknown) => log(`Scheduled publishing failed (it runs again later): ${error instanceof Error ? error.message : String(error)}`),
      )
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
