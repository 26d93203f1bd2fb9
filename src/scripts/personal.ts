/**
 * A chapter page's script for a reader with something of their own on it, which the page script
 * (src/scripts/page.ts) loads as a file of its own only then: a signed-in member, or a reader
 * whose browser keeps notes on this chapter. An anonymous reader's pages carry none of it (their
 * JavaScript before interaction stays within 5 KB: issue 32).
 *
 * - A member's reading (issue 23): every 30 s while the page is visible, and as it is left or
 *   hidden, the chapter and the subsection being read ("On this page"'s current item), for their
 *   profile, their place on any device and the operator's Readers tab (best effort: a missed
 *   heartbeat only shortens a figure). The server counts at most one every 15 s.
 * - Notes (issue 32): when the member's notebook holds notes on this chapter (the session answer
 *   named it: `data-notes` on <html>), or this browser keeps notes (an anonymous reader's, from
 *   before sign-in) or a sealed save not yet sent on it,
 *   the Notebook island wakes once the page is idle, to show them and send what waits.
 */
import { WAKE_NOTEBOOK } from "../lib/page-signals.ts";
import { HEARTBEAT_SECONDS } from "../lib/reading-terms.ts";
import { NOTEBOOK_LOCAL_KEY, NOTEBOOK_PENDING_KEY } from "../lib/storage-keys.ts";

const root = document.documentElement;
const slug = document.querySelector<HTMLElement>("[data-chapter-slug]")!.dataset.chapterSlug!;

// (The page script marks <html> data-auth="in" for a signed-in member.)
if (root.dataset.auth) {
  const beat = () =>
    fetch("/api/reading/heartbeat", {
      method: "POST",
      // (Kept alive only as the page is hidden, maybe being left: it must outlive the page.)
      keepalive: document.hidden,
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ slug, section: document.querySelector(".toc-link[aria-current]")?.getAttribute("href")?.slice(1) }),
    }).catch(() => {});
  beat();
  setInterval(() => document.hidden || beat(), HEARTBEAT_SECONDS * 1000);
  // (Also as the page comes back: it counts no more than the next regular one would.)
  addEventListener("visibilitychange", beat);
}

let kept: string | null = null;
try {
  kept = `${localStorage.getItem(NOTEBOOK_LOCAL_KEY)}${localStorage.getItem(NOTEBOOK_PENDING_KEY)}`;
} catch {
  // storage unavailable: nothing is kept here
}
if (root.dataset.notes?.split(",").includes(slug) || kept?.includes(`"${slug}":`)) {
  (self.requestIdleCallback ?? setTimeout)(() => dispatchEvent(new Event(WAKE_NOTEBOOK)));
}
