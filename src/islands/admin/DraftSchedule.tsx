/**
 * "Save as draft" for the chapter and subsection forms (issue 14): which button submitted the
 * form, and an optional time to publish the draft at (the scheduled job publishes it then).
 */
import { useRef, useState } from "react";
import type { SaveOptions } from "../../stores/admin-api.ts";
import Field from "./Field.tsx";
import { input } from "./ui.ts";

/** A date-time as a datetime-local input shows it, in the browser's time zone. */
function localInputValue(iso: string | null | undefined): string {
  if (!iso) return "";
  const date = new Date(iso);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

export function useDraftSaving(publishAt: string | null | undefined) {
  const asDraft = useRef(false);
  const [at, setAt] = useState(localInputValue(publishAt));
  return {
    at,
    setAt,
    /** Called by the submit buttons' clicks, before the form's submit event. */
    choose(draft: boolean) {
      asDraft.current = draft;
    },
    options(): SaveOptions {
      if (!asDraft.current) return {};
      return { draft: true, publishAt: at ? new Date(at).toISOString() : null };
    },
  };
}

export default function DraftSchedule({ draft }: { draft: ReturnType<typeof useDraftSaving> }) {
  return (
    <Field label="Publish the draft at (optional)" hint="With Save as draft: the draft goes live at this time. Leave empty to publish it yourself.">
      <input className={input} type="datetime-local" value={draft.at} onChange={(e) => draft.setAt(e.target.value)} />
    </Field>
  );
}
