/**
 * An access code's end date and cap on sessions at once (issue 14), as the issue form and the
 * settings dialog edit them. The values stay text while edited; `limitsPayload` turns them into
 * what the API takes, for the shared schema to check.
 */
import { toWholeNumber, DEFAULT_MAX_SESSIONS, MOST_MAX_SESSIONS } from "../../lib/content-schemas.ts";
import type { AccessCodeLimitsPayload } from "../../stores/admin-api.ts";
import { endOfDay } from "./end-date.ts";
import Field from "./Field.tsx";
import type { FieldErrors } from "./form-errors.ts";
import { input } from "./ui.ts";

export interface LimitsValues {
  /** YYYY-MM-DD, the last day the code works; "" for never. */
  endDay: string;
  maxSessions: string;
}

export const defaultLimits: LimitsValues = { endDay: "", maxSessions: String(DEFAULT_MAX_SESSIONS) };

export function limitsPayload(values: LimitsValues): AccessCodeLimitsPayload {
  return { expiresAt: endOfDay(values.endDay), maxSessions: toWholeNumber(values.maxSessions) };
}

interface Props {
  values: LimitsValues;
  onChange: (values: LimitsValues) => void;
  errors: FieldErrors;
}

export default function AccessCodeLimitsFields({ values, onChange, errors }: Props) {
  return (
    <>
      <Field label="Ends after (optional)" hint="The last day it works; its sessions end with it. Empty: never." error={errors.expiresAt}>
        <input className={input} type="date" value={values.endDay} onChange={(e) => onChange({ ...values, endDay: e.target.value })} />
      </Field>
      <Field label="Sessions at once" hint="Signing in on one more device ends the oldest session." error={errors.maxSessions}>
        <input
          className={input}
          type="number"
          inputMode="numeric"
          min={1}
          max={MOST_MAX_SESSIONS}
          value={values.maxSessions}
          onChange={(e) => onChange({ ...values, maxSessions: e.target.value })}
        />
      </Field>
    </>
  );
}
