/** Editing an issued access code's end date and session cap (issue 14). */
import { useRef, useState, type SubmitEvent } from "react";
import { accessCodeLimits } from "../../lib/content-schemas.ts";
import type { AccessCodeEntry, AccessCodeLimitsPayload } from "../../stores/admin-api.ts";
import { setAccessCodeLimits } from "../../stores/admin-access-codes.ts";
import AccessCodeLimitsFields, { limitsPayload, type LimitsValues } from "./AccessCodeLimitsFields.tsx";
import Dialog from "./Dialog.tsx";
import { lastDay } from "./end-date.ts";
import { useFieldErrors } from "./form-errors.ts";
import { primary, secondary } from "./ui.ts";
import { notebookKept } from "./notebook-kept.ts";

export default function AccessCodeSettingsDialog({ code, onClose }: { code: AccessCodeEntry | null; onClose: () => void }) {
  return (
    <Dialog
      open={code !== null}
      title={code ? `Settings of ${code.login}` : ""}
      description={`A lower cap ends the oldest sessions beyond it at once. An expired code's sessions stay ended when its date moves.${code ? notebookKept(code) : ""}`}
      onClose={onClose}
    >
      {code && <SettingsForm code={code} onClose={onClose} />}
    </Dialog>
  );
}

function SettingsForm({ code, onClose }: { code: AccessCodeEntry; onClose: () => void }) {
  const form = useRef<HTMLFormElement>(null);
  const initial: LimitsValues = { endDay: lastDay(code.expiresAt), maxSessions: String(code.maxSessions) };
  const [values, setValues] = useState<LimitsValues>(initial);
  // Only what changed is sent: an expired code's past date need not be valid to change its cap.
  const full = limitsPayload(values);
  const changes: Partial<AccessCodeLimitsPayload> = {
    ...(values.endDay !== initial.endDay && { expiresAt: full.expiresAt }),
    ...(values.maxSessions !== initial.maxSessions && { maxSessions: full.maxSessions }),
  };
  const { errors, validate } = useFieldErrors(accessCodeLimits, changes, form);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: SubmitEvent) {
    event.preventDefault();
    if (!validate()) return;
    setPending(true);
    const saved = Object.keys(changes).length === 0 || (await setAccessCodeLimits(code.login, changes));
    setPending(false);
    if (saved) onClose();
  }

  return (
    <form ref={form} className="grid gap-4" onSubmit={(e) => void onSubmit(e)} noValidate>
      <AccessCodeLimitsFields values={values} onChange={setValues} errors={errors} />
      <div className="flex justify-end gap-3">
        <button type="button" className={secondary} onClick={onClose} disabled={pending}>
          Cancel
        </button>
        <button type="submit" className={primary} disabled={pending}>
          {pending ? "Saving..." : "Save Settings"}
        </button>
      </div>
    </form>
  );
}
