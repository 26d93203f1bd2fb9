/**
 * A line diff for the admin's revision history (issue 14): which lines of an earlier version were
 * removed, added or kept in the current one, by longest common subsequence. Lines are compared
 * whole; a long text's unchanged head and tail are matched first, so a small edit of a long
 * chapter costs little.
 */
export type DiffLine = { kind: "same" | "removed" | "added"; text: string };

/** At most this many lines between the common head and tail are compared pairwise (the rest is shown as replaced). */
const MAX_MIDDLE = 4000;

export function diffLines(before: string, after: string): DiffLine[] {
  const a = before.split("\n");
  const b = after.split("\n");
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const same = (text: string): DiffLine => ({ kind: "same", text });
  const middleA = a.slice(head, a.length - tail);
  const middleB = b.slice(head, b.length - tail);
  const middle =
    middleA.length * middleB.length > MAX_MIDDLE * MAX_MIDDLE
      ? [...middleA.map((text): DiffLine => ({ kind: "removed", text })), ...middleB.map((text): DiffLine => ({ kind: "added", text }))]
      : lcsDiff(middleA, middleB);
  return [...a.slice(0, head).map(same), ...middle, ...a.slice(a.length - tail).map(same)];
}

function lcsDiff(a: string[], b: string[]): DiffLine[] {
  const n = a.length;
  const m = b.length;
  // lengths[i][j]: the longest common subsequence of a[i..] and b[j..].
  const lengths = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i]![j] = a[i] === b[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ kind: "same", text: a[i]! });
      i++;
      j++;
    } else if (lengths[i + 1]![j]! >= lengths[i]![j + 1]!) {
      out.push({ kind: "removed", text: a[i++]! });
    } else {
      out.push({ kind: "added", text: b[j++]! });
    }
  }
  while (i < n) out.push({ kind: "removed", text: a[i++]! });
  while (j < m) out.push({ kind: "added", text: b[j++]! });
  return out;
}

/** Whether two versions differ at all, line by line. */
export const changed = (lines: readonly DiffLine[]) => lines.some((line) => line.kind !== "same");
