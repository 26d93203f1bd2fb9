/**
 * A page whose parts each load on their own is shown whole (issue 44: 3): "Loading..." stays until
 * every part has had its first answer, then everything appears at once, so nothing on screen moves
 * as the answers come in one by one (/profile, /resume signed in). A part that has not answered
 * within `capMs` is waited for no longer.
 */
import { useCallback, useEffect, useState } from "react";
import { FULL_SHEET_ID, SHEET_IN } from "../../lib/page-signals.ts";

export const SHOW_ANYWAY_MS = 5000;

export function useShownWhole<Part extends string>(parts: readonly Part[], capMs = SHOW_ANYWAY_MS): { whole: boolean; settled: (part: Part) => void } {
  const [done, setDone] = useState<ReadonlySet<Part>>(() => new Set());
  const [late, setLate] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setLate(true), capMs);
    return () => clearTimeout(timer);
  }, [capMs]);
  const settled = useCallback((part: Part) => setDone((now) => (now.has(part) ? now : new Set(now).add(part))), []);
  return { whole: late || parts.every((part) => done.has(part)), settled };
}

/** Calls `onSettled` once, when `ready` first holds. */
export function useSettledOnce(ready: boolean, onSettled: (() => void) | undefined): void {
  useEffect(() => {
    if (ready) onSettled?.();
  }, [ready, onSettled]);
}

/** Whether the page's full sheet is in (or the page has none to wait for): see SHEET_IN. */
function sheetIn(): boolean {
  return document.documentElement.dataset.sheet === "in" || !document.getElementById(FULL_SHEET_ID);
}

/** Calls `onIn` once the full sheet is in: what only the browser draws waits for it (SHEET_IN). */
export function useSheetIn(onIn: () => void): void {
  useEffect(() => {
    if (sheetIn()) return onIn();
    const arrived = () => sheetIn() && onIn();
    addEventListener(SHEET_IN, arrived);
    return () => removeEventListener(SHEET_IN, arrived);
  }, [onIn]);
}
