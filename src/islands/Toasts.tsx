/**
 * The notification region: at most one toast; a swipe right of 50 px (mouse, pen or touch) or the
 * close button dismisses it. A toast never covers the control it is about: it shows at the edge
 * of the screen away from the focused control (Next, a form's button), at the top under the
 * header when that control is in the lower half, else at the bottom.
 *
 * It hydrates when the first notice is raised (client:interaction, src/lib/notify.ts) and then
 * draws every notice; F8 (focus the region) is the page script's, so it works before this loads.
 */
import { useEffect, useLayoutEffect, useRef, useState, type PointerEvent } from "react";
import toast, { useToaster, type Toast } from "react-hot-toast";
import { attachToasts, noticeFor, showPendingNotice, TOAST_DURATION_MS, type Notice } from "../lib/notify.ts";

const SWIPE_THRESHOLD_PX = 50;

function show(id: string, notice: Notice): void {
  const destructive = notice.variant === "destructive";
  toast.custom(() => null, {
    id,
    duration: notice.duration ?? TOAST_DURATION_MS,
    ariaProps: { role: destructive ? "alert" : "status", "aria-live": destructive ? "assertive" : "polite" },
  });
}

export default function Toasts() {
  const { toasts, handlers } = useToaster();
  const region = useRef<HTMLElement>(null);

  // Attached once hydrated: the notices raised before (the reason this island woke) show now,
  // and the one an earlier page left, which the page script woke this island for.
  useEffect(() => {
    attachToasts({ show, dismiss: (id) => toast.dismiss(id) });
    showPendingNotice();
  }, []);

  const visible = toasts.filter((t) => t.visible).slice(0, 1);
  const shownId = visible[0]?.id;
  const [edge, setEdge] = useState<"top" | "bottom">("top");
  useLayoutEffect(() => {
    if (shownId) setEdge(edgeAwayFromFocus());
  }, [shownId]);
  return (
    <section
      ref={region}
      id="notifications"
      tabIndex={-1}
      aria-label="Notifications (F8)"
      data-edge={edge}
      className={`pointer-events-none fixed right-4 z-[100] flex w-[min(24rem,calc(100vw-2rem))] flex-col gap-2 outline-none ${
        edge === "top" ? "top-16" : "bottom-4"
      }`}
      onMouseEnter={handlers.startPause}
      onMouseLeave={handlers.endPause}
    >
      {visible.map((t) => (
        <ToastItem key={t.id} toast={t} />
      ))}
    </section>
  );
}

/** The screen edge farther from the focused control: the control a new toast is about. */
function edgeAwayFromFocus(): "top" | "bottom" {
  const focused = document.activeElement;
  if (!focused || focused === document.body) return "top";
  const box = focused.getBoundingClientRect();
  return box.top + box.height / 2 > window.innerHeight / 2 ? "top" : "bottom";
}

function ToastItem({ toast: t }: { toast: Toast }) {
  const notice = noticeFor(t.id) ?? { title: "" };
  const start = useRef<number | null>(null);
  const [offset, setOffset] = useState(0);
  const destructive = notice.variant === "destructive";
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if ((event.target as Element).closest("button")) return;
    start.current = event.clientX;
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent) => {
    if (start.current !== null) setOffset(Math.max(0, event.clientX - start.current));
  };
  const onPointerUp = (event: PointerEvent) => {
    if (start.current !== null && event.clientX - start.current >= SWIPE_THRESHOLD_PX) toast.dismiss(t.id);
    start.current = null;
    setOffset(0);
  };
  const onPointerCancel = () => {
    start.current = null;
    setOffset(0);
  };
  return (
    <div
      {...t.ariaProps}
      data-variant={notice.variant ?? "default"}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerCancel}
      // Vertical panning stays the browser's; a sideways touch is ours (no pointercancel).
      style={offset ? { transform: `translateX(${offset}px)`, opacity: Math.max(0.3, 1 - offset / 200) } : undefined}
      className={`pointer-events-auto flex touch-pan-y select-none items-start gap-3 rounded-lg border p-4 shadow-lg ${
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
