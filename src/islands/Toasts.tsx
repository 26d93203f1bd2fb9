/**
 * The notification region: at most one toast, F8 moves focus to it, a swipe right of 50 px or
 * the close button dismisses it.
 */
import { useEffect, useRef, useSyncExternalStore, type PointerEvent } from "react";
import toast, { useToaster, type Toast } from "react-hot-toast";
import { noticeFor, showPendingNotice } from "../lib/notify.ts";

const SWIPE_THRESHOLD_PX = 50;

const noSubscription = () => () => {};

/** False while React hydrates the server's HTML, true from the render after. */
function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

export default function Toasts() {
  const { toasts, handlers } = useToaster();
  const region = useRef<HTMLElement>(null);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "F8") {
        event.preventDefault();
        region.current?.focus();
      }
    };
    window.addEventListener("keydown", onKey);
    showPendingNotice();
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  // The server rendered an empty region: a toast raised before this island woke (another island's
  // start-up error, say) shows on the render right after hydration, not during it.
  const hydrated = useHydrated();
  const visible = hydrated ? toasts.filter((t) => t.visible).slice(0, 1) : [];
  return (
    <section
      ref={region}
      tabIndex={-1}
      aria-label="Notifications (F8)"
      className="pointer-events-none fixed bottom-4 right-4 z-[100] flex w-[min(24rem,calc(100vw-2rem))] flex-col gap-2 outline-none"
      onMouseEnter={handlers.startPause}
      onMouseLeave={handlers.endPause}
    >
      {visible.map((t) => (
        <ToastItem key={t.id} toast={t} />
      ))}
    </section>
  );
}

function ToastItem({ toast: t }: { toast: Toast }) {
  const notice = noticeFor(t.id) ?? { title: "" };
  const start = useRef<number | null>(null);
  const destructive = notice.variant === "destructive";
  const onPointerDown = (event: PointerEvent) => {
    start.current = event.clientX;
  };
  const onPointerUp = (event: PointerEvent) => {
    if (start.current !== null && event.clientX - start.current > SWIPE_THRESHOLD_PX) toast.dismiss(t.id);
    start.current = null;
  };
  return (
    <div
      {...t.ariaProps}
      data-variant={notice.variant ?? "default"}
      onPointerDown={onPointerDown}
      onPointerUp={onPointerUp}
      className={`pointer-events-auto flex items-start gap-3 rounded-lg border p-4 shadow-lg ${
        destructive
          ? "border-red-700 bg-red-700 text-white"
          : "border-neutral-200 bg-white text-neutral-900 dark:border-neutral-700 dark:bg-neutral-900 dark:text-neutral-50"
      }`}
    >
      <div className="flex-1">
        <p className="text-sm font-semibold">{notice.title}</p>
        {notice.description && <p className="mt-1 text-sm opacity-90">{notice.description}</p>}
      </div>
      <button
        type="button"
        aria-label="Close notification"
        className="rounded p-1 text-sm opacity-70 hover:opacity-100 focus-visible:opacity-100"
        onClick={() => toast.dismiss(t.id)}
      >
        ✕
      </button>
    </div>
  );
}
