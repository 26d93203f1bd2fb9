import type { AccessCodeEntry } from "../../stores/admin-api.ts";

/**
 * What ending a code means for its member's notebook (issue 32), when they keep one: only how many
 * notes it holds (the panel never sees their text), and how long it is kept for them to take away.
 */
export function notebookKept(code: AccessCodeEntry): string {
  if (code.notebookNotes === null) return "";
  const notes = `${code.notebookNotes} ${code.notebookNotes === 1 ? "note" : "notes"}`;
  return ` Their notebook (${notes}) is kept for 30 days after their access ends, so they can download it from /resume with this code and its password; then it is erased.`;
}
