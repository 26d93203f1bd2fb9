/**
 * The scan in progress, kept in sessionStorage so a reload resumes at the same question with the
 * answers given so far. sessionStorage rather than localStorage: a scan belongs to one tab, and
 * answers about how someone sees themselves should not outlive the tab on a shared computer.
 * A completed scan is removed; anything unreadable is removed and ignored.
 * Checked by hand, not with zod: the island would ship zod for this alone (issue 13).
 */
import { ANSWERS, QUESTION_COUNT, type Answer, type Answers } from "../../lib/assessment/shape.ts";

export const SCAN_STORAGE_KEY = "assessmentScan";

export interface StoredScan {
  sessionId: string | null;
  /** The question shown, 0 to 14. */
  index: number;
  answers: Answers;
  /** Questions whose current answer the server has confirmed storing for this session. */
  confirmed: number[];
}

const isQuestion = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 1 && (n as number) <= QUESTION_COUNT;

/** The stored scan, when `data` is one (version 1), else null. */
function storedScan(data: unknown): StoredScan | null {
  if (!data || typeof data !== "object") return null;
  const { v, sessionId, index, answers, confirmed } = data as Record<string, unknown>;
  if (v !== 1 || !(sessionId === null || (typeof sessionId === "string" && sessionId !== ""))) return null;
  if (!Number.isInteger(index) || (index as number) < 0 || (index as number) >= QUESTION_COUNT) return null;
  if (!answers || typeof answers !== "object" || Array.isArray(answers) || !Array.isArray(confirmed) || !confirmed.every(isQuestion)) return null;
  const entries = Object.entries(answers);
  if (!entries.every(([n, a]) => /^([1-9]|1[0-5])$/.test(n) && ANSWERS.includes(a as Answer))) return null;
  return { sessionId, index: index as number, answers: Object.fromEntries(entries.map(([n, a]) => [Number(n), a as Answer])), confirmed };
}

type KeyValueStore = Pick<Storage, "getItem" | "setItem" | "removeItem">;

/** The browser's sessionStorage, or nothing when it is unavailable (private modes, blocked storage). */
export function browserStore(): KeyValueStore | null {
  try {
    return typeof sessionStorage === "undefined" ? null : sessionStorage;
  } catch {
    return null;
  }
}

export function readScan(store: KeyValueStore | null): StoredScan | null {
  if (!store) return null;
  try {
    const raw = store.getItem(SCAN_STORAGE_KEY);
    if (!raw) return null;
    const scan = storedScan(JSON.parse(raw));
    if (scan) return scan;
  } catch {
    // not JSON: fall through and forget it
  }
  store.removeItem(SCAN_STORAGE_KEY);
  return null;
}

export function writeScan(store: KeyValueStore | null, scan: StoredScan): void {
  try {
    store?.setItem(SCAN_STORAGE_KEY, JSON.stringify({ v: 1, ...scan }));
  } catch {
    // storage full or blocked: the scan still works, it just cannot resume after a reload
  }
}

export function clearScan(store: KeyValueStore | null): void {
  try {
    store?.removeItem(SCAN_STORAGE_KEY);
  } catch {
    // nothing to clear
  }
}
