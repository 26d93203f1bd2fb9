/**
 * When a failed delivery is tried again: 30 s after the first failure, doubling each time (1 min,
 * 2 min, 4 min ... ), at most 4 hours apart, for 24 hours after it was queued; the last try is
 * at the 24-hour mark, then the delivery is marked failed (the log offers "Send again").
 */
export const RETRY_WINDOW_MS = 24 * 3600 * 1000;
export const FIRST_RETRY_MS = 30 * 1000;
export const MAX_RETRY_GAP_MS = 4 * 3600 * 1000;

/** The wait after the `attempts`-th failed attempt (1 = the first). */
export function retryDelay(attempts: number): number {
  return Math.min(MAX_RETRY_GAP_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
}

/** The next attempt after a failure at `now`, or null once the retry window has ended. */
export function nextAttemptAfterFailure(attempts: number, now: Date, giveUpAt: Date): Date | null {
  if (now.getTime() >= giveUpAt.getTime()) return null;
  return new Date(Math.min(now.getTime() + retryDelay(attempts), giveUpAt.getTime()));
}
