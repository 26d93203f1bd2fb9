/**
 * The scan in progress, kept in sessionStorage so a reload resumes at the same question with the
 * answers given so far. sessionStorage rather than localStorage: a scan belongs to one tab, and
 * answers about how someone sees themselves should not outlive the tab on a shared computer.
 * A completed scan is removed; anything unreadable is removed and ignored.
 */
import { z } from "../../lib/zod.ts";
import { QUESTION_COUNT, answerSchema, type Answers } from "../../lib/assessment/model.ts";

export const SCAN_STORAGE_KEY = "assessmentScan";

export interface StoredScan {
  sessionId: string | null;
  /** The question shown, 0 to 14. */
  index: number;
  answers: Answers;
  /** Questions whose current answer the server has confirmed storing for this session. */
  confirmed: number[];
}

const questionKey = z.string().regex(/^([1-9]|1[0-5])$/);
const storedSchema = z.object({
  v: z.literal(1),
  sessionId: z.string().min(1).nullable(),
  index: z.number().int().min(0).max(QUESTION_COUNT - 1),
  answers: z.record(questionKey, answerSchema),
  confirmed: z.array(z.number().int().min(1).max(QUESTION_COUNT)),
});

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
    const parsed = storedSchema.safeParse(JSON.parse(raw));
    if (parsed.success) {
      const { v: _v, answers, ...rest } = parsed.data;
      return { ...rest, answers: Object.fromEntries(Object.entries(answers).map(([n, a]) => [Number(n), a])) };
    }
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
