/**
 * How the site writes a moment and a day (issue 22: 10): one style everywhere ("Nov 26, 2026,
 * 1:05 PM" and "Nov 26, 2026"), in the reader's language and time zone, without seconds.
 */
const MOMENT = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const DAY = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

export const formatMoment = (date: Date): string => MOMENT.format(date);
export const formatDay = (date: Date): string => DAY.format(date);
