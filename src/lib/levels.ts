/** The three access levels, lowest first. A chapter with no level counts as Operator. */
export const LEVELS = ["Operator", "Architect", "Mastermind"] as const;
export type Level = (typeof LEVELS)[number];

export const DEFAULT_LEVEL: Level = "Operator";

/** The levels an access code is issued for: the locked ones (Operator is open to everyone). */
export const LOCKED_LEVELS: readonly Level[] = LEVELS.filter((level) => level !== DEFAULT_LEVEL);

export function isLevel(value: unknown): value is Level {
  return typeof value === "string" && (LEVELS as readonly string[]).includes(value);
}

/** A stored level, where null or unknown values count as Operator. */
export function levelOf(value: string | null | undefined): Level {
  return isLevel(value) ? value : DEFAULT_LEVEL;
}

/** Whether a reader holding `held` (or nobody, when null) may read content of `required`. */
export function canAccess(held: Level | null, required: Level): boolean {
  const rank = (level: Level) => LEVELS.indexOf(level);
  return rank(required) === 0 || (held !== null && rank(held) >= rank(required));
}

/** Every level a reader holding `held` (or nobody) may read, lowest first. */
export function accessibleLevels(held: Level | null): Level[] {
  return LEVELS.filter((level) => canAccess(held, level));
}

/** /resume's address for a reader sent there from `level`, which they may not read: the page names it. */
export const resumeFor = (level: Level): string => `/resume?level=${level}`;

/** The locked level named in /resume's query (`resumeFor`), if it names one a reader may be sent from. */
export function askedLevel(search: string): Level | null {
  const level = new URLSearchParams(search).get("level");
  return isLevel(level) && level !== DEFAULT_LEVEL ? level : null;
}
