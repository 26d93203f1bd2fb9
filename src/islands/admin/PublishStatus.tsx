/**
 * What the public site shows now: live, publishing (polled until done) or failed with the
 * reason; when it was last published; whether changes wait for the next build; whether the
 * cached chapter pages were cleared (a failed purge is tried again until it goes through); and
 * whether the search index holds the open level's current text.
 */
import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import type { PublishStatus as Status } from "../../stores/admin-api.ts";
import { $publish, publishNow, searchFilesNote, stopPublishPolling } from "../../stores/admin-publish.ts";
import { formatTime, secondary } from "./ui.ts";

const dot: Record<string, string> = {
  live: "bg-emerald-600",
  publishing: "bg-amber-500 animate-pulse",
  failed: "bg-red-600",
};

const stateLabel: Record<string, string> = { live: "Live", publishing: "Publishing...", failed: "Publish failed" };

export default function PublishStatus() {
  const status = useStore($publish);
  // (Fetched with the panel's first lists, so the line is there when the panel shows and never
  // pushes the tabs down under a pointer: AdminApp.tsx. Its polling stops with the panel.)
  useEffect(() => stopPublishPolling, []);
  if (!status) return null;
  return (
    <div role="status" aria-live="polite" className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm" data-testid="publish-status" data-state={status.state}>
      <span className="inline-flex items-center gap-2 font-medium">
        <span aria-hidden="true" className={`h-2.5 w-2.5 rounded-full ${dot[status.state] ?? ""}`} />
        Site: {stateLabel[status.state] ?? status.state}
      </span>
      {status.state === "failed" && status.error && <span className="text-red-700 dark:text-red-400">{status.error}</span>}
      {status.pending && status.state !== "publishing" && <span className="text-[var(--color-muted)]">Changes pending</span>}
      <span className="text-[var(--color-muted)]">Last published: {status.lastPublishedAt ? formatTime(status.lastPublishedAt) : "never"}</span>
      <CachePurgeNote purge={status.cachePurge} />
      <SearchIndexNote index={status.searchIndex} />
      {(status.state === "failed" || (status.pending && status.state !== "publishing")) && (
        <button type="button" className={secondary} onClick={() => void publishNow()}>
          {status.state === "failed" ? "Retry Publish" : "Publish Now"}
        </button>
      )}
    </div>
  );
}

function CachePurgeNote({ purge }: { purge: Status["cachePurge"] }) {
  if (!purge) return null;
  if (purge.state === "failed") {
    return (
      <span data-testid="publish-purge" data-state="failed" className="text-red-700 dark:text-red-400">
        Cached pages not cleared yet: tried {purge.attempts} {purge.attempts === 1 ? "time" : "times"}, next try {formatTime(purge.nextAttemptAt)}.
      </span>
    );
  }
  if (purge.state === "pending") {
    return (
      <span data-testid="publish-purge" data-state="pending" className="text-[var(--color-muted)]">
        Clearing the cached pages...
      </span>
    );
  }
  if (!purge.doneAt) return null;
  return (
    <span data-testid="publish-purge" data-state="done" className="text-[var(--color-muted)]">
      Cached pages cleared: {formatTime(purge.doneAt)}
    </span>
  );
}

function SearchIndexNote({ index }: { index: Status["searchIndex"] }) {
  if (!index || index.state === "current") return null;
  if (index.state === "updating") {
    return (
      <span data-testid="publish-search-index" data-state="updating" className="text-[var(--color-muted)]">
        Search index: updating with the build
      </span>
    );
  }
  const exposed = searchFilesNote(index);
  return (
    <span data-testid="publish-search-index" data-state="outdated" data-exposed={exposed ? "true" : undefined} className="text-amber-800 dark:text-amber-300">
      Search index out of date: it holds the open level&apos;s text as published {index.asOf ? formatTime(index.asOf) : "by the last build"}.{" "}
      {exposed ?? "Words added since are not found by the search box yet."} The next successful publish rebuilds it.
    </span>
  );
}
