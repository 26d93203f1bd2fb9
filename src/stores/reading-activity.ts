/**
 * Reading activity for the signed-in client's profile: while a chapter page is open and visible,
 * a heartbeat every 30 seconds (and one on arrival). Anonymous readers send nothing.
 */
import { $auth } from "./auth.ts";

export const HEARTBEAT_MS = 30_000;

let tracking: string | null = null;

function beat(slug: string): void {
  if (!$auth.get().isAuthenticated || document.visibilityState !== "visible") return;
  void fetch("/api/reading/heartbeat", {
    method: "POST",
    credentials: "include",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ slug }),
    keepalive: true,
  }).catch(() => {
    // Best effort: a missed heartbeat only shortens a figure on the profile.
  });
}

/** Starts the heartbeats for the chapter on screen (once per page). */
export function trackReading(slug: string): void {
  if (tracking) return;
  tracking = slug;
  const unsubscribe = $auth.subscribe((auth) => {
    if (!auth.isLoading && auth.isAuthenticated) {
      beat(slug);
      queueMicrotask(() => unsubscribe());
    }
  });
  window.setInterval(() => beat(slug), HEARTBEAT_MS);
  document.addEventListener("visibilitychange", () => beat(slug));
}
