/**
 * Publishing content changes (DESIGN.md section 4, docs/decisions/0007). Every successful admin
 * content change calls `schedulePublish`, which
 * 1. purges the CDN's cached chapter pages (cache-purge.ts): chapter pages are rendered on request,
 *    so the change is what readers get from the next request on, Operator chapters included, and
 *    a chapter moved to a locked level or deleted is withdrawn at once;
 * 2. rebuilds the static pages only if the chapter list they show changed (their content stamp,
 *    src/server/build/snapshot.ts, differs from the live site's):
 *    - locally, the host's publisher (local-publisher.ts): a debounced rebuild, swapped in whole;
 *    - on Netlify, in production only, the build hook (BUILD_HOOK_URL). While a build runs, further
 *      changes only mark work pending; the build, when it finishes, calls the hook again if the list
 *      changed after it took its snapshot (netlify-build.ts), so a burst of edits costs at most two.
 *      Other deploy contexts (previews) never call the production build hook.
 */
import { config } from "../config.ts";
import type { Database } from "../db/types.ts";
import { takeSnapshot, snapshotStamp } from "../build/snapshot.ts";
import { deferAfterResponse } from "../runtime/request-scope.ts";
import { purgeBookPages } from "./cache-purge.ts";
import { claimBuild, markFailed, markPublished, markRequested, markStarted, readPublishRow, readPublishView, type PublishView } from "./state.ts";

export interface LocalPublisher {
  /** Publish after a quiet moment (debounced). */
  request(): void;
  /** Publish at once. */
  now(): void;
}

let local: LocalPublisher | undefined;

/** The local host's publisher (or none: then changes are recorded as pending only). */
export function useLocalPublisher(publisher: LocalPublisher | undefined): void {
  local = publisher;
}

/** A Netlify build that started longer ago than this is taken to have died: the hook is called again. */
const STALE_BUILD_MS = 20 * 60 * 1000;

/**
 * On Netlify a page rendered from the old content may still be on its way to the CDN when the
 * first purge lands (it read the database before the change committed); a second purge this long
 * after the first drops it too.
 */
export const SECOND_PURGE_MS = 1000;

export const MISSING_HOOK =
  "BUILD_HOOK_URL is not set, so content changes cannot reach the static pages. Create a build hook in Netlify (Site configuration > Build & deploy > Build hooks) and set BUILD_HOOK_URL to its URL.";

/** After a content change: withdraw the cached pages, then rebuild the static pages if their list changed. */
export async function schedulePublish(db: Database, now = new Date()): Promise<void> {
  await markRequested(db, now);
  const purgeError = await purge(db);
  const row = await readPublishRow(db);
  const stamp = snapshotStamp(await takeSnapshot(db));
  if (row.siteStamp === stamp && row.state !== "publishing") {
    // The static pages show this list already: the change is live with the purge alone.
    if (purgeError) await markFailed(db, purgeError);
    else await markPublished(db, now, stamp, now);
    return;
  }
  await startBuild(db, now, false);
  if (purgeError) await markFailed(db, purgeError);
}

/** POST /api/admin/publish: purge and rebuild now, whatever the state. */
export async function publishNow(db: Database, now = new Date()): Promise<PublishView> {
  await markRequested(db, now);
  const purgeError = await purge(db);
  await startBuild(db, now, true);
  if (purgeError) await markFailed(db, purgeError);
  return readPublishView(db);
}

/**
 * Pauses before the purge is tried again: a chapter withdrawn from the open level stays in the
 * CDN's cache until a purge succeeds, so a failed one is not left at that.
 */
export const PURGE_RETRY_DELAYS_MS = [250, 1000];

async function purgeWithRetries(db: Database): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await purgeBookPages(db);
    } catch (error) {
      const delay = PURGE_RETRY_DELAYS_MS[attempt];
      if (delay === undefined) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/** Purges the cached chapter pages; answers why it failed, if it did. */
async function purge(db: Database): Promise<string | null> {
  try {
    await purgeWithRetries(db);
    if (config().platform === "netlify-functions") {
      deferAfterResponse(
        new Promise((resolve) => setTimeout(resolve, SECOND_PURGE_MS)).then(() => purgeBookPages(db)),
      );
    }
    return null;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    console.error(`Could not purge the cached chapter pages: ${reason}`);
    return `The change is saved, but the cached chapter pages could not be cleared (${reason}). They are cleared by the next deploy; try Publish again.`;
  }
}

async function startBuild(db: Database, now: Date, force: boolean): Promise<void> {
  const settings = config();
  if (settings.platform === "local") {
    if (force) local?.now();
    else local?.request();
    return;
  }
  if (settings.deployContext === "production") {
    await callBuildHook(db, now, force);
    return;
  }
  await markFailed(
    db,
    `This is a ${settings.deployContext ?? "non-production"} deploy: chapter pages show changes at once, but the static pages' chapter lists are only rebuilt with its next deploy.`,
  );
}

/**
 * Calls the build hook unless a build is already under way (`force` calls it anyway). The claim
 * comes first, in one statement: of several instances saving at once, one calls the hook.
 */
export async function callBuildHook(db: Database, now = new Date(), force = false): Promise<void> {
  if (force) await markStarted(db, now);
  else if (!(await claimBuild(db, now, new Date(now.getTime() - STALE_BUILD_MS)))) return;
  const hook = config().buildHookUrl;
  if (!hook) {
    await markFailed(db, MISSING_HOOK);
    return;
  }
  try {
    const response = await fetch(hook, { method: "POST", signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw new Error(`the build hook answered ${response.status} ${response.statusText}`);
  } catch (error) {
    await markFailed(db, `Could not start a Netlify build: ${error instanceof Error ? error.message : String(error)}. Try Publish again.`);
  }
}
