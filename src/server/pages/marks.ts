/**
 * Filling a built page's placeholders (the chapter shell, the page notice): each token becomes a
 * mark first, and the marks become the texts last, in one pass, so no text is ever searched for a
 * token (a title may say anything). A mark is a name between NULs: NUL can be in no text
 * PostgreSQL stores or we write, so no text can hold one.
 */
export const mark = (name: string): string => `\u0000${name}\u0000`;

/** `marked` with each mark replaced by its value (an unknown one by nothing). */
export function fillMarks(marked: string, values: Record<string, string>): string {
  return marked.replace(/\u0000(\w+)\u0000/g, (_, name: string) => values[name] ?? "");
}
