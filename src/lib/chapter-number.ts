/**
 * The number readers see for a chapter (issue 34: 10): the rail's (SPEC.md section 2: 00, 01, ...),
 * from the chapter's 1-based position among its level's chapters as readers list them. The panel's
 * cards, the Readers tab, its CSV, My notebook and its download all show this one number; the
 * stored order stays what the operator edits. Import-free: the Navigator island ships it (links.ts).
 */
export const chapterNumber = (position: number): string => twoDigits(position - 1);

/** A number as the book shows it: two digits (a subsection's 01, the rail's 00). */
export function twoDigits(n: number): string {
  return String(n).padStart(2, "0");
}

/**
 * The position (1-based) of `chapter` among `list` as readers see it (published, not deleted), or
 * null for a chapter readers do not see (a draft, a deleted one). `list` is in reading order.
 */
export function readersPosition<T extends { id: number; status?: string; deletedAt?: string | null }>(list: readonly T[], chapter: T): number | null {
  const seen = list.filter((c) => c.status !== "draft" && !c.deletedAt);
  const index = seen.findIndex((c) => c.id === chapter.id);
  return index === -1 ? null : index + 1;
}
