/**
 * Scoring a finished scan: the total is the sum of the chosen options' points; each dimension's
 * score is the sum over the questions that feed it; the band holding the total gives the level
 * label and the description. The server runs this on the stored answers, never on client input.
 */
import type { AssessmentContent, Band } from "./content.ts";
import { unansweredQuestions, type Answers } from "./model.ts";

/** What is stored in assessment_sessions.score_breakdown (SPEC.md section 3). */
export interface ScoreBreakdown {
  /** The band's level label, e.g. "Deliberate Operation". */
  level: string;
  totalScore: number;
  /** Points per dimension, keyed by the dimension id of the content file. */
  categoryScores: Record<string, number>;
}

export interface Score extends ScoreBreakdown {
  band: Band;
}

/** The band whose range holds `total`. Throws for a total outside every band (a content error). */
export function bandFor(content: AssessmentContent, total: number): Band {
  const band = content.bands.find((b) => total >= b.min && total <= b.max);
  if (!band) throw new RangeError(`No score band holds a total of ${total}.`);
  return band;
}

/** Scores a complete set of answers. Throws when a question is unanswered. */
export function scoreAnswers(content: AssessmentContent, answers: Answers): Score {
  const missing = unansweredQuestions(answers);
  if (missing.length > 0) throw new RangeError(`Questions ${missing.join(", ")} are not answered.`);
  const categoryScores: Record<string, number> = Object.fromEntries(content.dimensions.map((d) => [d.id, 0]));
  let totalScore = 0;
  for (const question of content.questions) {
    const chosen = question.options.find((o) => o.value === answers[question.id])!;
    totalScore += chosen.points;
    categoryScores[question.dimension]! += chosen.points;
  }
  const band = bandFor(content, totalScore);
  return { level: band.level, totalScore, categoryScores, band };
}
