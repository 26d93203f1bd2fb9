/**
 * The name and email a reader gives before seeing their result (SPEC.md section 5). One set of
 * rules for the browser (which shows the spec's toasts) and the server (which answers 400, with
 * the schema in contact.ts). No zod here, so the scan's island does not ship it (issue 13).
 */

/** Long enough for any real name or codename; short enough that nobody stores an essay. */
export const NAME_MAX_LENGTH = 100;
/** The longest address SMTP can deliver to (RFC 5321). */
export const EMAIL_MAX_LENGTH = 254;

/**
 * SPEC.md section 5: something, an at sign, something, a dot, something, with no spaces. Kept this
 * simple on purpose: the address is only stored for the operator to read, never mailed by the site.
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type ContactProblem = "required" | "invalid-email" | "too-long";

/** What is wrong with a name and email (after trimming), or null when both are fine. */
export function contactProblem(name: string, email: string): ContactProblem | null {
  const n = name.trim();
  const e = email.trim();
  if (!n || !e) return "required";
  if (!EMAIL_PATTERN.test(e)) return "invalid-email";
  if (n.length > NAME_MAX_LENGTH || e.length > EMAIL_MAX_LENGTH) return "too-long";
  return null;
}

/** The words shown beside each field that is wrong (issue 44: 4); a field that is fine is absent. */
export interface ContactFieldProblems {
  name?: string;
  email?: string;
}

/**
 * What is wrong with each of the name and email, said to the reader beside the field (the toast
 * of SPEC.md section 5 says it for the form as a whole, from contactProblem). Both fields are
 * judged at once, so a reader learns everything wrong in one try.
 */
export function contactFieldProblems(name: string, email: string): ContactFieldProblems {
  const n = name.trim();
  const e = email.trim();
  const problems: ContactFieldProblems = {};
  if (!n) problems.name = "Please enter your name or a codename.";
  else if (n.length > NAME_MAX_LENGTH) problems.name = `Please keep your name within ${NAME_MAX_LENGTH} characters.`;
  if (!e) problems.email = "Please enter your email address.";
  else if (!EMAIL_PATTERN.test(e)) problems.email = "Please enter a valid email address, like name@example.com.";
  else if (e.length > EMAIL_MAX_LENGTH) problems.email = `Please keep your email within ${EMAIL_MAX_LENGTH} characters.`;
  return problems;
}
