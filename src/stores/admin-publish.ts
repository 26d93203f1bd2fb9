/**
 * What the public site shows: live, publishing (a rebuild is running) or failed (with the
 * reason), when it was last published, whether changes wait for the next build, a cache purge
 * still to go through, and whether the search index is current. Polled while a build runs (and,
 * more slowly, while a purge is still open); refreshed after every content change.
 */
import { atom } from "nanostores";
import { apiRequest, errorMessage } from "../lib/api-client.ts";
import { notify } from "../lib/notify.ts";
import type { PublishStatus } from "./admin-api.ts";

export const PUBLISH_POLL_MS = 2000;
/** After a failure, or while only a cache purge is open: retries come after minutes, not seconds. */
export const PURGE_POLL_MS = 15_000;

export const $publish = atom<PublishStatus | null>(null);

let timer: ReturnType<typeof setTimeout> | undefined;

/** Fetches the status; keeps polling while a build runs, changes are pending or a purge is open. */
export async function refreshPublish(): Promise<void> {
  clearTimeout(timer);
  timer = undefined;
  try {
    const status = await apiRequest<PublishStatus>("GET", "/api/admin/publish");
    $publish.set(status);
    const purgeOpen = status.cachePurge !== undefined && status.cachePurge.state !== "done";
    if (status.state === "publishing" || (status.pending && status.state !== "failed")) timer = setTimeout(() => void refreshPublish(), PUBLISH_POLL_MS);
    else if (purgeOpen || status.state === "failed") timer = setTimeout(() => void refreshPublish(), PURGE_POLL_MS);
  } catch {
    // The indicator keeps its last known state; the next change refreshes it.
  }
}

/** Starts a build now (after a failure, or to publish pending changes at once). */
export async function publishNow(): Promise<void> {
  try {
    await apiRequest("POST", "/api/admin/publish");
  } catch (error) {
    notify({ title: "Error", description: `Failed to publish: ${errorMessage(error)}`, variant: "destructive" });
  }
  await refreshPublish();
}

/** Said in the save's toast when the words it withdrew stay public in the search files (issue 31: 2). */
export const SEARCH_FILES_TOAST = "The words it replaced or removed stay public in the site's search files until a build is live: see the publish status.";

/**
 * What the publish status says while withdrawn open text stays public in the search files with no
 * build coming to replace it; null otherwise. (The search box leaves such results out, but the files
 * themselves can still be downloaded: that is what this says.)
 */
export function searchFilesNote(index: PublishStatus["searchIndex"]): string | null {
  if (!index?.exposed || !index.withdrawn) return null;
  const chapters = index.withdrawn === 1 ? "1 chapter" : `${index.withdrawn} chapters`;
  return `Withdrawn words are still public: the site's search files hold the earlier text of ${chapters} until a build is live. The search box does not show it, but anyone who asks for those files can read it.`;
}

/** How many chapters' withdrawn text is exposed in the search files now (0 when none, or when a build is coming). */
export function exposedWithdrawals(status: PublishStatus | null): number {
  return status?.searchIndex?.exposed ? (status.searchIndex.withdrawn ?? 0) : 0;
}

export function stopPublishPolling(): void {
  clearTimeout(timer);
  timer = undefined;
}
