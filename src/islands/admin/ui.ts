import { formatMoment } from "../../lib/dates.ts";

/** The admin panel's shared class names (Tailwind v4 with the site's colour variables). */
export const card = "rounded-lg border border-[var(--color-line)] bg-[var(--color-panel)] p-4 shadow-sm sm:p-5";
export const input =
  "mt-1 block w-full rounded-md border border-[var(--color-line)] bg-[var(--color-page)] px-3 py-2 text-[var(--color-ink)] outline-none focus-visible:ring-2 focus-visible:ring-[var(--color-accent)] aria-[invalid=true]:border-red-600 disabled:opacity-60";
export const label = "block text-sm font-medium";
export const hint = "mt-1 text-xs text-[var(--color-muted)]";
export const fieldError = "mt-1 text-sm text-red-700 dark:text-red-400";
export const primary =
  "inline-flex items-center justify-center gap-2 rounded-md bg-[var(--color-accent)] px-4 py-2 text-sm font-medium text-[var(--color-accent-ink)] hover:opacity-90 disabled:cursor-not-allowed disabled:opacity-50";
export const secondary =
  "inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-md border border-[var(--color-line)] px-3 py-1.5 text-sm hover:border-[var(--color-muted)] disabled:cursor-not-allowed disabled:opacity-50";
export const danger =
  "inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-md border border-red-700 px-3 py-1.5 text-sm text-red-700 hover:bg-red-700 hover:text-white dark:border-red-400 dark:text-red-400 dark:hover:bg-red-700 dark:hover:text-white disabled:opacity-50";
export const dangerSolid =
  "inline-flex items-center justify-center gap-2 rounded-md bg-red-700 px-4 py-2 text-sm font-medium text-white hover:bg-red-800 disabled:opacity-50";
export const badge = "inline-flex items-center rounded-full border border-[var(--color-line)] px-2 py-0.5 text-xs font-medium";
export const muted = "text-sm text-[var(--color-muted)]";

/** A date-time as the admin's browser writes it, or a dash. */
export function formatTime(value: string | null | undefined): string {
  if (!value) return "—";
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : formatMoment(date);
}
