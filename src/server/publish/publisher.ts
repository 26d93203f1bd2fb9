/**
 * Publishing content changes (DESIGN.md section 4, docs/decisions/0007). Every successful admin
 * content change calls `schedulePublish`, which
 * 1. purges the CDN's cached chapter pages (cache-purge.ts): chapter pages are rendered on request,
 *    so the change is what readers get from the next request on, Operator chapters included, and
 *    a chapter moved to a locked level or deleted is withdrawn at once. The purge is a job: one
 *    that fails is tried again until it succeeds, and shown in the publish status meanwhile;
 * 2. rebuilds the static pages only if what they hold changed (their content stamp,
 *    src/server/build/snapshot.ts, differs from the live site's: the chapter list, or the open
 *    level's text in the static search index):
 *    - locally, the host's publisher (local-publisher.ts): a debounced rebuild, swapped in whole;
 *    - on Netlify, in production only, the build hook (BUILD_HOOK_URL). While a build runs, further
 *      changes only mark work pending; the build, when it finishes, calls the hook again if the list
 *      changed after it took its snapshot (netlify-build.ts), so a burst of edits costs at most two.
 *      Other deploy contexts (previews) never call the production build hook. Without a build hook
 *      only this step fails, and the publish status says why (MISSING_HOOK); the site serves on.
 */
import { config } from "../config.ts";
import { keepConnectionUntil } from "../db/index.ts";
import type { Database } from "../db/types.ts";
import { currentContent } from "../build/snapshot.ts";
import { deferAfterResponse } from "../runtime/request-scope.ts";
import { purgeBookPages } from "./cache-purge.ts";
import { claimBuild, markFailed, markPublished, markRequested, markStarted, MISSING_HOOK, readPublishRow, readPublishView, STALE_BUILD_MS, type PublishView } from "./state.ts";

export { MISSING_HOOK } from "./state.ts";
export { PURGE_RETRY_DELAYS_MS } from "./cache-purge.ts";

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

/**
 * On Netlify a page rendered from the old content may still be on its way to the CDN when the
 * first purge lands (it read the database before the change committed); a second purge this long
 * after the first drops it too.
 */
export const SECOND_PURGE_MS = 1000;

/** After a content change: withdraw the cached pages, then rebuild the static pages if their list changed. */
export async function schedulePublish(db: Database, now = new Date()): Promise<void> {
  await markRequested(db, now);
  await purge(db, now);
  const row = await readPublishRow(db);
  const content = await currentContent(db);
  if (row.siteStamp === content.stamp && row.state !== "publishing") {
    // The static pages show this list already: the change is live with the purge alone.
    await markPublished(db, now, content, now);
    return;
  }
  await startBuild(db, now, false);
}

/** POST /api/admin/publish: purge (every purge still open with it) and rebuild now, whatever the state. */
export async function publishNow(db: Database, now = new Date()): Promise<PublishView> {
  await markRequested(db, now);
  await purge(db, now);
  await startBuild(db, now, true);
  return readPublishView(db);
}

/**
 * Purges the cached chapter pages before the save answers (a failure stays a job: cache-purge.ts);
 * on Netlify once more SECOND_PURGE_MS later, after the answer, unless the first failed (its job,
 * done later, drops such a page all the same). The second is tried once: if it fails, its job waits.
 */
async function purge(db: Database, now: Date): Promise<void> {
  const first = await purgeBookPages(db, now);
  if (config().platform === "netlify-functions" && first.failed === 0) {
    const second = new Promise((resolve) => setTimeout(resolve, SECOND_PURGE_MS)).then(() => purgeBookPages(db, new Date(), []));
    keepConnectionUntil(second.catch(() => {})); // it records its job in the request's database
    deferAfterResponse(second);
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
  const { buildHookUrl: hook, buildHookProblem } = config();
  if (!hook) {
    // Nothing starts, so the change stays pending; the rest of the site is unaffected.
    await markFailed(db, buildHookProblem ?? MISSING_HOOK);
    return;
  }
  if (force) await markStarted(db, now);
  else if (!(await claimBuild(db, now, new Date(now.getTime() - STALE_BUILD_MS)))) return;
  try {
    const response = await fetch(hook, { method: "POST", signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw new Error(`the build hook answered ${response.status} ${response.statusText}`);
  } catch (error) {
    await markFailed(db, `Could not start a Netlify build: ${error instanceof Error ? error.message : String(error)}. Try Publish again.`);
  }
}
