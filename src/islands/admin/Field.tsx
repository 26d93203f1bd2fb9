/** A labelled form field with an optional hint and its inline error, wired for screen readers. */
import { cloneElement, useId, type ReactElement, type ReactNode } from "react";
import { fieldError, hint as hintClass, label as labelClass } from "./ui.ts";

interface Props {
  label: string;
  hint?: string;
  error?: string;
  children: ReactElement<{ id?: string; "aria-invalid"?: boolean; "aria-describedby"?: string }>;
  /** A control beside the label (the content's Preview toggle). */
  action?: ReactNode;
  /** What shows right after the control (the content's preview). */
  below?: ReactNode;
}

export default function Field({ label, hint, error, children, action, below }: Props) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div>
      {action ? (
        <div className="flex items-end justify-between gap-3">
          <label htmlFor={id} className={labelClass}>
            {label}
          </label>
          {action}
        </div>
      ) : (
        <label htmlFor={id} className={labelClass}>
          {label}
        </label>
      )}
      {cloneElement(children, { id, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy })}
      {below}
      {hint && (
        <p id={hintId} className={hintClass}>
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className={fieldError}>
          {error}
        </p>
      )}
    </div>
  );
}
