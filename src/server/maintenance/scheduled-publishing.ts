/**
 * Scheduled publishing (issue 14): drafts whose publishing time has come are published, then the
 * change goes out as an edit's does (purge, and the build hook in production when the chapter
 * list changed). Each run first tries again the cache purges that failed and are due
 * (src/server/publish/cache-purge.ts, issue 21): a purge API that was down is made good within a
 * run of coming back. Run by a scheduled Netlify Function (netlify/functions/scheduled-publishing.ts,
 * every 15 minutes) and by the local host's timer (every minute). Two runs at once publish each
 * draft once (src/server/admin/drafts.ts: publishDue); a purge made twice does no harm.
 */
import { publishDue, type DuePublishing } from "../admin/drafts.ts";
import type { Database } from "../db/types.ts";
import { runPurgeJobs, type PurgeRun } from "../publish/cache-purge.ts";
import { schedulePublish } from "../publish/publisher.ts";
import { failureLine } from "../http/log-failure.ts";

export async function runScheduledPublishing(db: Database, now = new Date()): Promise<DuePublishing> {
  const result = await publishDue(db, now);
  if (result.published.length > 0) await schedulePublish(db, now);
  return result;
}

export interface PublishingJobsRun extends DuePublishing {
  /** The failed cache purges tried again. */
  cachePurges: PurgeRun;
}

/** One run of the scheduled job: the failed cache purges that are due, then the drafts that are. */
export async function runPublishingJobs(db: Database, now = new Date()): Promise<PublishingJobsRun> {
  const cachePurges = await runPurgeJobs(db, { now });
  return { ...(await runScheduledPublishing(db, now)), cachePurges };
}

/** Runs scheduled publishing every `everyMs` (the local host); answers a function that stops it. */
export function schedulePublishing(db: Database, log: (line: string) => void, everyMs = 60 * 1000): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    runPublishingJobs(db)
      .then(
        ({ published, failed, cachePurges }) => {
          if (cachePurges.purged > 0) log(`Cache purges that had failed went through (${cachePurges.purged}).`);
          if (published.length > 0) log(`Scheduled publishing: published ${published.map(({ kind, id }) => `${kind} ${id}`).join(", ")}.`);
          for (const reason of failed) log(`Scheduled publishing could not publish (it tries again next run): ${reason}`);
        },
        (error: unknown) => log(failureLine("Scheduled publishing failed (it runs again later)", error)),
      )
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
