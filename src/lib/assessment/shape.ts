/**
 * The fixed shape of the Mental Operating System Scan (SPEC.md sections 3 and 9): 15 questions,
 * four options each, labelled A to D. Shared by the content file's schema, the server and the
 * island. No zod here, so the scan's island does not ship it (issue 13): the schemas built on this
 * shape are in model.ts.
 */

export const QUESTION_COUNT = 15;
/**
 * How long the scan takes most readers, in minutes: said before question 1, and by the book where
 * it points to the scan (one figure everywhere: issue 44: 7; content.test.ts holds the book to it).
 */
export const SCAN_MINUTES = 4;
export const ANSWERS = ["A", "B", "C", "D"] as const;
export type Answer = (typeof ANSWERS)[number];

/** The question numbers, 1 to 15. */
export const QUESTION_NUMBERS: readonly number[] = Array.from({ length: QUESTION_COUNT }, (_, i) => i + 1);

/** Chosen answers by question number; a question not answered yet is absent. */
export type Answers = Partial<Record<number, Answer>>;

/** The question numbers of `answers` that have no answer yet, in order. */
export function unansweredQuestions(answers: Answers): number[] {
  return QUESTION_NUMBERS.filter((n) => !answers[n]);
}

/** What the browser gets of a question: its text and options, never the points. */
export interface PublicQuestion {
  id: number;
  text: string;
  options: { value: Answer; text: string }[];
}

/** What completing a scan answers (SPEC.md section 3, Result). */
/** Where a total can fall: the lowest and highest totals and the bands between (level names and ranges only). */
export interface ScoreScale {
  min: number;
  max: number;
  bands: Array<{ min: number; max: number; level: string }>;
}

export interface ScanResult {
  totalScore: number;
  level: string;
  description: string;
  /** The levels' scale the score falls on (issue 34: 4), given with a result only: the scan's page carries no level. */
  scale: ScoreScale;
  /** The private link to this result (site-relative), from the completion's answer only. */
  resultUrl?: string;
}
