/**
 * Profile figures from reading days: the streak (consecutive days with reading, ending today, or
 * yesterday when today has none yet) and the last seven days. Days are UTC dates (YYYY-MM-DD).
 */
const DAY_MS = 24 * 3600 * 1000;

export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function readingDays(days: Iterable<string>, now: Date): { streakDays: number; week: boolean[] } {
  const set = new Set(days);
  const dayAgo = (n: number) => utcDay(new Date(now.getTime() - n * DAY_MS));
  const week = Array.from({ length: 7 }, (_, i) => set.has(dayAgo(6 - i)));
  const start = set.has(dayAgo(0)) ? 0 : 1;
  let streakDays = 0;
  while (set.has(dayAgo(start + streakDays))) streakDays++;
  return { streakDays, week };
}
