/**
 * A modal dialog on the native <dialog>: showModal() makes the page behind inert (focus stays
 * inside), Escape closes it, it is labelled by its title, and focus returns to what opened it.
 * The content is mounted only while open, so each opening starts from fresh form state.
 */
import { useEffect, useId, useRef, type ReactNode } from "react";

interface Props {
  open: boolean;
  title: string;
  description?: string;
  onClose: () => void;
  children: ReactNode;
  role?: "dialog" | "alertdialog";
  wide?: boolean;
}

export default function Dialog({ open, title, description, onClose, children, role, wide = false }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    if (open && !element.open) {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      element.showModal();
      element.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    } else if (!open && element.open) {
      element.close();
    }
  }, [open]);

  const onNativeClose = () => {
    const back = opener.current;
    opener.current = null;
    if (back?.isConnected) back.focus();
    else document.getElementById("main")?.focus();
    if (open) onClose();
  };

  return (
    <dialog
      ref={ref}
      role={role}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onClose={onNativeClose}
      onClick={(event) => {
        // A click on the backdrop lands on the dialog element itself, outside its content box.
        if (event.target === event.currentTarget) ref.current?.close();
      }}
      className={`m-auto max-h-[calc(100dvh-2rem)] ${wide ? "w-[min(44rem,calc(100vw-2rem))]" : "w-[min(30rem,calc(100vw-2rem))]"} overflow-y-auto rounded-lg border border-[var(--color-line)] bg-[var(--color-panel)] p-0 text-[var(--color-ink)] backdrop:bg-black/60`}
    >
      {open && (
        <div className="p-6">
          <div className="flex items-start justify-between gap-4">
            <h2 id={titleId} className="font-serif text-xl">
              {title}
            </h2>
            <button type="button" className="rounded-md p-1.5 hover:bg-[var(--color-line)]" aria-label="Close" onClick={() => ref.current?.close()}>
              <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.75" aria-hidden="true">
                <path d="M6 6l12 12M18 6L6 18" />
              </svg>
            </button>
          </div>
          {description && (
            <p id={descriptionId} className="mt-2 text-sm text-[var(--color-muted)]">
              {description}
            </p>
          )}
          <div className="mt-4">{children}</div>
        </div>
      )}
    </dialog>
  );
}
