/**
 * Notifications (SPEC.md sections 4 and 9): one toast at a time, shown 5000 ms by default, with a
 * title, an optional description and a destructive variant. Rendered by the Toasts island.
 */
import toast from "react-hot-toast";

export interface Notice {
  title: string;
  description?: string;
  variant?: "default" | "destructive";
  duration?: number;
}

export const TOAST_DURATION_MS = 5000;

const notices = new Map<string, Notice>();
let sequence = 0;

/** The notice behind a toast id (read by the Toasts island). */
export function noticeFor(id: string): Notice | undefined {
  return notices.get(id);
}

/** Shows a toast, replacing any shown now; with the id of a shown toast, updates it. Answers the id. */
export function notify(notice: Notice, id?: string): string {
  if (!id) toast.dismiss();
  const toastId = id ?? `notice-${++sequence}`;
  notices.set(toastId, notice);
  const destructive = notice.variant === "destructive";
  return toast.custom(() => null, {
    id: toastId,
    duration: notice.duration ?? TOAST_DURATION_MS,
    ariaProps: { role: destructive ? "alert" : "status", "aria-live": destructive ? "assertive" : "polite" },
  });
}

export function dismiss(id?: string): void {
  toast.dismiss(id);
}

const PENDING_KEY = "pendingNotice";

/**
 * Shows `notice` on the next page this tab opens: for an action that leads to another page at
 * once (logging out of /profile), whose toast would otherwise go with the page it was raised on.
 */
export function notifyOnNextPage(notice: Notice): void {
  try {
    sessionStorage.setItem(PENDING_KEY, JSON.stringify(notice));
  } catch {
    // storage unavailable: the next page shows nothing
  }
}

/** Shows the notice an earlier page left for this one, if any (the Toasts island, once awake). */
export function showPendingNotice(): void {
  let notice: Notice | null = null;
  try {
    const raw = sessionStorage.getItem(PENDING_KEY);
    sessionStorage.removeItem(PENDING_KEY);
    notice = raw ? (JSON.parse(raw) as Notice) : null;
  } catch {
    notice = null;
  }
  if (notice && typeof notice.title === "string") notify(notice);
}
