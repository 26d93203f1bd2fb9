/**
 * What the public site shows now: live, publishing (polled until done) or failed with the
 * reason; when it was last published; whether changes wait for the next build.
 */
import { useStore } from "@nanostores/react";
import { useEffect } from "react";
import { $publish, publishNow, refreshPublish, stopPublishPolling } from "../../stores/admin-publish.ts";
import { formatTime, secondary } from "./ui.ts";

const dot: Record<string, string> = {
  live: "bg-emerald-600",
  publishing: "bg-amber-500 animate-pulse",
  failed: "bg-red-600",
};

const stateLabel: Record<string, string> = { live: "Live", publishing: "Publishing...", failed: "Publish failed" };

export default function PublishStatus() {
  const status = useStore($publish);
  useEffect(() => {
    void refreshPublish();
    return stopPublishPolling;
  }, []);
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
      {(status.state === "failed" || (status.pending && status.state !== "publishing")) && (
        <button type="button" className={secondary} onClick={() => void publishNow()}>
          {status.state === "failed" ? "Retry Publish" : "Publish Now"}
        </button>
      )}
    </div>
  );
}
