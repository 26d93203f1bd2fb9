/** The completion payload's schema (SPEC.md section 5), on the rules in contact-rules.ts. */
import { z } from "../zod.ts";
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN, NAME_MAX_LENGTH } from "./contact-rules.ts";

export * from "./contact-rules.ts";

/** The completion payload as the server reads it: trimmed, required, the email checked, lengths capped. */
export const contactSchema = z.object({
  name: z
    .string({ error: "is required" })
    .trim()
    .min(1, "is required")
    .max(NAME_MAX_LENGTH, `must be at most ${NAME_MAX_LENGTH} characters`),
  email: z
    .string({ error: "is required" })
    .trim()
    .min(1, "is required")
    .max(EMAIL_MAX_LENGTH, `must be at most ${EMAIL_MAX_LENGTH} characters`)
    .regex(EMAIL_PATTERN, "must look like name@example.com, with no spaces"),
});
