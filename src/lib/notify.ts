/**
 * Notifications (SPEC.md sections 4 and 9): one toast at a time, shown 5000 ms by default, with a
 * title, an optional description and a destructive variant.
 *
 * Plain code, no React: any page may raise a notice before the Toasts island is up (the island
 * loads only when a notice needs showing, src/directives/interaction.ts). Notices raised before
 * then wait here, the island is woken (WAKE_TOASTS), and it shows them once it attaches.
 */
import { WAKE_TOASTS } from "./page-signals.ts";
import { wakeIsland } from "./wake-island.ts";
import { PENDING_NOTICE_KEY } from "./storage-keys.ts";

export interface Notice {
  title: string;
  description?: string;
  variant?: "default" | "destructive";
  duration?: number;
}

export const TOAST_DURATION_MS = 5000;

/** What draws the toasts: the Toasts island, once it is up. */
export interface ToastRenderer {
  show(id: string, notice: Notice): void;
  /** Dismisses one toast, or every toast without an id. */
  dismiss(id?: string): void;
}

const notices = new Map<string, Notice>();
/** Raised before the renderer attached, in order; at most one unless updated by id. */
const waiting = new Map<string, Notice>();
let renderer: ToastRenderer | null = null;
let sequence = 0;

/** The notice behind a toast id (read by the Toasts island). */
export function noticeFor(id: string): Notice | undefined {
  return notices.get(id);
}

/** Shows a toast, replacing any shown now; with the id of a shown toast, updates it. Answers the id. */
export function notify(notice: Notice, id?: string): string {
  const toastId = id ?? `notice-${++sequence}`;
  notices.set(toastId, notice);
  if (renderer) {
    if (!id) renderer.dismiss();
    renderer.show(toastId, notice);
  } else {
    if (!id) waiting.clear();
    waiting.set(toastId, notice);
    wakeIsland(WAKE_TOASTS);
  }
  return toastId;
}

export function dismiss(id?: string): void {
  if (renderer) renderer.dismiss(id);
  else if (id) waiting.delete(id);
  else waiting.clear();
}

/** The Toasts island attaches once it is up, and shows what was raised before. */
export function attachToasts(next: ToastRenderer): void {
  renderer = next;
  for (const [id, notice] of waiting) next.show(id, notice);
  waiting.clear();
}

/**
 * Shows `notice` on the next page this tab opens: for an action that leads to another page at
 * once (logging out of /profile), whose toast would otherwise go with the page it was raised on.
 */
export function notifyOnNextPage(notice: Notice): void {
  try {
    sessionStorage.setItem(PENDING_NOTICE_KEY, JSON.stringify(notice));
  } catch {
    // storage unavailable: the next page shows nothing
  }
}

/** Shows the notice an earlier page left for this one, if any (the Toasts island, once up). */
export function showPendingNotice(): void {
  let notice: Notice | null = null;
  try {
    const raw = sessionStorage.getItem(PENDING_NOTICE_KEY);
    if (raw === null) return;
    sessionStorage.removeItem(PENDING_NOTICE_KEY);
    notice = JSON.parse(raw) as Notice;
  } catch {
    notice = null;
  }
  if (notice && typeof notice.title === "string") notify(notice);
}
