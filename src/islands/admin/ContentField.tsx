/**
 * The Content field of the chapter and subsection dialogs, with its Preview toggle (issue 22: 4):
 * pressed, the text shows as readers will see it (ContentPreview, loaded on first use) in place
 * of the text area; pressed again, the text area comes back with everything typed.
 */
import { lazy, Suspense, useState } from "react";
import type { PreviewOf } from "./ContentPreview.tsx";
import Field from "./Field.tsx";
import { input, muted, secondary } from "./ui.ts";

const ContentPreview = lazy(() => import("./ContentPreview.tsx"));

interface Props {
  value: string;
  onChange: (value: string) => void;
  error?: string;
  hint?: string;
  rows: number;
  /** The text area's height. */
  height: string;
  preview: PreviewOf;
  transformHref: string;
  toggle: ReturnType<typeof usePreviewing>;
}

/** Whether the dialog shows its preview; the form turns it off to show a field's error. */
export function usePreviewing() {
  const [previewing, setPreviewing] = useState(false);
  return { previewing, setPreviewing };
}

export default function ContentField({ value, onChange, error, hint, rows, height, preview, transformHref, toggle }: Props) {
  return (
    <Field
      label="Content"
      hint={hint}
      error={error}
      action={
        // Says which state it is in (issue 34: 11): its words, its pressed state and its look.
        <button
          type="button"
          className={`${secondary} aria-pressed:border-[var(--color-accent)] aria-pressed:text-[var(--color-accent)]`}
          aria-pressed={toggle.previewing}
          onClick={() => toggle.setPreviewing(!toggle.previewing)}
        >
          {toggle.previewing ? "Back to editing" : "Preview"}
        </button>
      }
      below={
        toggle.previewing && (
          <Suspense fallback={<p className={`${muted} mt-1`}>Loading the preview...</p>}>
            <ContentPreview of={preview} transformHref={transformHref} />
          </Suspense>
        )
      }
    >
      <textarea className={`${input} ${height} font-mono text-sm`} rows={rows} value={value} hidden={toggle.previewing} onChange={(e) => onChange(e.target.value)} />
    </Field>
  );
}
