/**
 * A form's field errors: one message per field, shown beside it from the first submit that finds
 * the field wrong, and gone as soon as the field becomes valid (the form is checked against its
 * schema on every change; a field nobody has submitted wrong yet shows nothing).
 */
import { useState, type RefObject } from "react";
import type { z } from "../../lib/zod.ts";

export type FieldErrors = Partial<Record<string, string>>;

export function fieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "form");
    errors[field] ??= issue.message;
  }
  return errors;
}

/** Moves focus to the first field with an error (in the form's order). */
export function focusFirstError(form: HTMLFormElement | null): void {
  form?.querySelector<HTMLElement>("[aria-invalid='true']")?.focus();
}

/**
 * Validates `values` with `schema`. `errors` are the current problems of the fields a submit
 * flagged; `validate()` (on submit) answers the parsed data, or null after flagging every wrong
 * field and moving focus to the first.
 */
export function useFieldErrors<T>(schema: z.ZodType<T>, values: unknown, form?: RefObject<HTMLFormElement | null>) {
  const [flagged, setFlagged] = useState<readonly string[]>([]);
  const parsed = schema.safeParse(values);
  const current = parsed.success ? {} : fieldErrors(parsed.error);
  const errors: FieldErrors = Object.fromEntries(flagged.filter((field) => current[field]).map((field) => [field, current[field]]));
  const validate = (): T | null => {
    if (parsed.success) {
      setFlagged([]);
      return parsed.data;
    }
    setFlagged(Object.keys(current));
    requestAnimationFrame(() => focusFirstError(form?.current ?? null));
    return null;
  };
  return { errors, validate };
}
