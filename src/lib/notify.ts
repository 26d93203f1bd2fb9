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
