/** Test helpers: a small valid content model and answers that reach an exact total. */
import type { AssessmentContent } from "./content.ts";
import { ANSWERS, QUESTION_NUMBERS, type Answers } from "./model.ts";

const description = (label: string) =>
  `About ${label}.\n\nWhat this tells us:\n• A point.\n\nNext move:\nA step.\n\n"A quote for ${label}."`;

/** Three dimensions fed by 5 questions each; option A is worth 1 point, B 2, C 3, D 4. */
export function sampleContent(): AssessmentContent {
  const dimensions = ["alpha", "beta", "gamma"].map((id) => ({ id, name: id.toUpperCase(), description: `The ${id} dimension.` }));
  return {
    version: 1,
    dimensions,
    questions: QUESTION_NUMBERS.map((id) => ({
      id,
      theme: `theme ${id}`,
      dimension: dimensions[(id - 1) % 3]!.id,
      text: `Question ${id}?`,
      options: ANSWERS.map((value, i) => ({ value, text: `Option ${value} of ${id}`, points: i + 1 })),
    })),
    bands: [
      { min: 15, max: 29, level: "Low", description: description("Low") },
      { min: 30, max: 44, level: "Middle", description: description("Middle") },
      { min: 45, max: 60, level: "High", description: description("High") },
    ],
  };
}

/** Answers to `content` whose points add up to exactly `total` (15 to 60). */
export function answersForTotal(content: AssessmentContent, total: number): Answers {
  let extra = total - content.questions.length;
  const answers: Answers = {};
  for (const question of content.questions) {
    const want = 1 + Math.min(3, Math.max(0, extra));
    extra -= want - 1;
    answers[question.id] = question.options.find((o) => o.points === want)!.value;
  }
  if (extra !== 0) throw new RangeError(`A total of ${total} cannot be reached.`);
  return answers;
}
