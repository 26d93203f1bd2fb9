/**
 * The schema of content/assessment.yaml: the questions, the dimensions they feed, and the score
 * bands. Pure (no file access), so the server, the build and the tests share it; the file's own
 * comments explain the model to the operator.
 */
import { z } from "../zod.ts";
import { descriptionProblem } from "./description.ts";
import { ANSWERS, QUESTION_COUNT, answerSchema, type PublicQuestion, type ScoreScale } from "./model.ts";

const POINTS = [1, 2, 3, 4] as const;
export const MIN_TOTAL = QUESTION_COUNT * Math.min(...POINTS);
export const MAX_TOTAL = QUESTION_COUNT * Math.max(...POINTS);

const text = z.string().trim().min(1, "must not be empty");

const option = z.strictObject({
  value: answerSchema,
  text,
  points: z.number().int().min(1, "must be 1, 2, 3 or 4").max(4, "must be 1, 2, 3 or 4"),
});

const question = z
  .strictObject({
    id: z.number().int(),
    theme: text,
    dimension: text,
    text,
    options: z.array(option).length(ANSWERS.length, `must list exactly ${ANSWERS.length} options, A to D`),
  })
  .superRefine((q, ctx) => {
    q.options.forEach((o, i) => {
      if (o.value !== ANSWERS[i]) {
        ctx.addIssue({ code: "custom", path: ["options", i, "value"], message: `must be ${ANSWERS[i]} (options go A, B, C, D in order)` });
      }
    });
    const points = q.options.map((o) => o.points).sort();
    if (points.join() !== POINTS.join()) {
      ctx.addIssue({ code: "custom", path: ["options"], message: "must use the points 1, 2, 3 and 4 once each" });
    }
  });

const dimension = z.strictObject({
  id: z.string().regex(/^[a-z]+(-[a-z]+)*$/, "must be lowercase letters and hyphens"),
  name: text,
  description: text,
});

const band = z
  .strictObject({
    min: z.number().int(),
    max: z.number().int(),
    level: text,
    description: text,
  })
  .superRefine((b, ctx) => {
    if (b.min > b.max) ctx.addIssue({ code: "custom", path: ["max"], message: "must not be below min" });
    const problem = descriptionProblem(b.description);
    if (problem) ctx.addIssue({ code: "custom", path: ["description"], message: problem });
  });

/** Every rule the content file's "HOW TO EDIT SAFELY" section lists. */
export const assessmentContentSchema = z
  .strictObject({
    version: z.literal(1),
    dimensions: z.array(dimension).min(3, "must list 3 to 5 dimensions").max(5, "must list 3 to 5 dimensions"),
    questions: z.array(question).length(QUESTION_COUNT, `must list exactly ${QUESTION_COUNT} questions`),
    bands: z.array(band).min(1, "must list at least one band"),
  })
  .superRefine((content, ctx) => {
    const dimensionIds = content.dimensions.map((d) => d.id);
    dimensionIds.forEach((id, i) => {
      if (dimensionIds.indexOf(id) !== i) ctx.addIssue({ code: "custom", path: ["dimensions", i, "id"], message: `repeats "${id}"` });
    });
    content.questions.forEach((q, i) => {
      if (q.id !== i + 1) ctx.addIssue({ code: "custom", path: ["questions", i, "id"], message: `must be ${i + 1} (ids go 1 to ${QUESTION_COUNT} in order)` });
      if (!dimensionIds.includes(q.dimension)) {
        ctx.addIssue({ code: "custom", path: ["questions", i, "dimension"], message: `must be one of the dimension ids: ${dimensionIds.join(", ")}` });
      }
    });
    content.dimensions.forEach((d, i) => {
      const fed = content.questions.filter((q) => q.dimension === d.id).length;
      if (fed < 3) ctx.addIssue({ code: "custom", path: ["dimensions", i, "id"], message: `is fed by ${fed} questions; each dimension needs at least 3` });
    });
    let expected = MIN_TOTAL;
    content.bands.forEach((b, i) => {
      if (b.min !== expected) {
        ctx.addIssue({ code: "custom", path: ["bands", i, "min"], message: `must be ${expected} (bands start at ${MIN_TOTAL} and leave no gap or overlap)` });
      }
      expected = b.max + 1;
    });
    const last = content.bands.at(-1);
    if (last && last.max !== MAX_TOTAL) {
      ctx.addIssue({ code: "custom", path: ["bands", content.bands.length - 1, "max"], message: `must be ${MAX_TOTAL}, the highest possible total` });
    }
    const levels = content.bands.map((b) => b.level);
    levels.forEach((level, i) => {
      if (levels.indexOf(level) !== i) ctx.addIssue({ code: "custom", path: ["bands", i, "level"], message: `repeats "${level}"` });
    });
  });

export type AssessmentContent = z.infer<typeof assessmentContentSchema>;
export type Band = AssessmentContent["bands"][number];

/** The questions as the browser may see them: text and options, no points, no dimensions. */
export function publicQuestions(content: AssessmentContent): PublicQuestion[] {
  return content.questions.map((q) => ({
    id: q.id,
    text: q.text,
    options: q.options.map((o) => ({ value: o.value, text: o.text })),
  }));
}

/** The result's scale as a result may show it (issue 34: 4): no band's description. */
export function scoreScale(content: AssessmentContent): ScoreScale {
  return { min: MIN_TOTAL, max: MAX_TOTAL, bands: content.bands.map(({ min, max, level }) => ({ min, max, level })) };
}
