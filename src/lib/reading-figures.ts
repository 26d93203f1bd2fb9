/**
 * A member's reading figures on /profile (issue 23), in words where a number would read as a fault
 * (issue 34: 2): a new member sees what is still to come, never a zero.
 */

export interface ReadingStats {
  streakDays: number;
  /** Whether the reader read on each of the last seven days, oldest first (today last). */
  week: boolean[];
  sessions: number;
  averageMinutes: number;
}

/** The streak's figure, and the line under it. */
export const streakFigure = (days: number): string => (days === 0 ? "Not started" : `${days} ${days === 1 ? "day" : "days"}`);
export const streakNote = (days: number): string =>
  days === 0 ? "Read a chapter today to start one." : days === 1 ? "Your first day. Read tomorrow to make it two." : "Days in a row with reading.";
export const sessionsFigure = (sessions: number): string => (sessions === 0 ? "None yet" : `${sessions}`);
export function averageLine({ sessions, averageMinutes }: Pick<ReadingStats, "sessions" | "averageMinutes">): string {
  if (sessions === 0) return "Your first reading session shows here.";
  if (averageMinutes < 1) return "Average session: under a minute";
  return `Average session: ${averageMinutes} ${averageMinutes === 1 ? "minute" : "minutes"}`;
}

