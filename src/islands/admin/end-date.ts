/**
 * An access code's end date as the admin panel edits it: a day in the operator's own calendar,
 * through which the code works. The API keeps the instant it ends: the start of the next day,
 * local time.
 */
import { formatDay } from "../../lib/dates.ts";

/** The instant a code chosen to work through `day` (YYYY-MM-DD) ends, as ISO; "" means never (null). */
export function endOfDay(day: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day.trim());
  if (!match) return day.trim() === "" ? null : day;
  const [, year, month, date] = match.map(Number) as [number, number, number, number];
  return new Date(year, month - 1, date + 1).toISOString();
}

/** The last day (YYYY-MM-DD, local) a code ending at `expiresAt` works; "" for never. */
export function lastDay(expiresAt: string | null): string {
  if (!expiresAt) return "";
  const last = new Date(new Date(expiresAt).getTime() - 1);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${last.getFullYear()}-${pad(last.getMonth() + 1)}-${pad(last.getDate())}`;
}

/** The last day as the operator's browser writes a date, or "No end date". */
export function formatLastDay(expiresAt: string | null): string {
  if (!expiresAt) return "No end date";
  return formatDay(new Date(new Date(expiresAt).getTime() - 1));
}

