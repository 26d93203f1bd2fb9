/**
 * "Save as draft" and the publish time of the chapter and subsection forms (issues 14 and 22):
 * which button submitted the form, and an optional time to publish at. A time makes either
 * button's save a scheduled draft (the scheduled job publishes it then); without one, the primary
 * button publishes now and "Save as draft" keeps a draft to publish by hand.
 */
import { useRef, useState } from "react";
import type { SaveOptions } from "../../stores/admin-api.ts";
import Field from "./Field.tsx";
import { input } from "./ui.ts";

export const PUBLISH_AT_LABEL = "Publish at (optional)";
export const PUBLISH_AT_IN_PAST = "Choose a time in the future, or leave it empty to publish now.";

/** A date-time as a datetime-local input shows it, in the browser's time zone. */
function localInputValue(iso: string | null | undefined): string {
  if (!iso) return "";
  const date = new Date(iso);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

export function useDraftSaving(publishAt: string | null | undefined) {
  const asDraft = useRef(false);
  const field = useRef<HTMLInputElement>(null);
  const [at, setAt] = useState(localInputValue(publishAt));
  const [error, setError] = useState<string | null>(null);
  return {
    at,
    error,
    field,
    setAt(value: string) {
      setAt(value);
      setError(null);
    },
    /** Called by the submit buttons' clicks, before the form's submit event. */
    choose(draft: boolean) {
      asDraft.current = draft;
    },
    /** The save's options; null, with the field's error shown, when the time is not in the future. */
    options(now = Date.now()): SaveOptions | null {
      if (at) {
        const when = new Date(at);
        if (Number.isNaN(when.getTime()) || when.getTime() <= now) {
          setError(PUBLISH_AT_IN_PAST);
          field.current?.focus();
          return null;
        }
        return { draft: true, publishAt: when.toISOString() };
      }
      return asDraft.current ? { draft: true, publishAt: null } : {};
    },
  };
}

export default function DraftSchedule({ draft }: { draft: ReturnType<typeof useDraftSaving> }) {
  return (
    <Field
      label={PUBLISH_AT_LABEL}
      hint="With a time, either button schedules this save: it goes live then, and readers see what is published until then. Empty: the main button publishes now, Save as draft keeps a draft."
      error={draft.error ?? undefined}
    >
      <input ref={draft.field} className={input} type="datetime-local" value={draft.at} onChange={(e) => draft.setAt(e.target.value)} />
    </Field>
  );
}
