/**
 * Publishing content changes to the static pages (DESIGN.md section 4). Every successful admin
 * content change calls `schedulePublish`; where the work happens depends on where we run:
 * - locally, the host registers a local publisher (local-publisher.ts): a debounced rebuild,
 *   swapped in when complete;
 * - on Netlify, the build hook (BUILD_HOOK_URL) starts a deploy. While one runs, further changes
 *   only mark work pending; the build, when it finishes, calls the hook again if changes arrived
 *   after it took its snapshot (see build-site.ts), so a burst of edits costs at most two builds.
 */
import { config } from "../config.ts";
import type { Database } from "../db/client.ts";
import { markFailed, markRequested, markStarted, readPublishRow, readPublishView, type PublishView } from "./state.ts";

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

export const MISSING_HOOK =
  "BUILD_HOOK_URL is not set, so content changes cannot reach the static pages. Create a build hook in Netlify (Site configuration > Build & deploy > Build hooks) and set BUILD_HOOK_URL to its URL.";

/** After a content change: publish it (debounced locally; at most one queued build on Netlify). */
export async function schedulePublish(db: Database, now = new Date()): Promise<void> {
  await markRequested(db, now);
  if (config().onNetlify) await callBuildHook(db, now, false);
  else local?.request();
}

/** POST /api/admin/publish: publish now, whatever the state. */
export async function publishNow(db: Database, now = new Date()): Promise<PublishView> {
  await markRequested(db, now);
  if (config().onNetlify) await callBuildHook(db, now, true);
  else local?.now();
  return readPublishView(db);
}

/** Calls the build hook unless a build is already under way (`force` calls it anyway). */
export async function callBuildHook(db: Database, now = new Date(), force = false): Promise<void> {
  const row = await readPublishRow(db);
  const running = row.state === "publishing" && row.startedAt && now.getTime() - row.startedAt.getTime() < STALE_BUILD_MS;
  if (running && !force) return;
  const hook = config().buildHookUrl;
  if (!hook) {
    await markFailed(db, MISSING_HOOK);
    return;
  }
  try {
    const response = await fetch(hook, { method: "POST", signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw new Error(`the build hook answered ${response.status} ${response.statusText}`);
    await markStarted(db, now);
  } catch (error) {
    await markFailed(db, `Could not start a Netlify build: ${error instanceof Error ? error.message : String(error)}. Try Publish again.`);
  }
}
