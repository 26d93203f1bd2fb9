/**
 * The scan's shape (shape.ts) and the schemas the server and the content file read it with.
 */
import { z } from "../zod.ts";
import { ANSWERS, QUESTION_COUNT } from "./shape.ts";

export * from "./shape.ts";

export const answerSchema = z.enum(ANSWERS, { error: "must be one of A, B, C or D" });
export const questionNumberSchema = z
  .number({ error: `must be a whole number from 1 to ${QUESTION_COUNT}` })
  .int(`must be a whole number from 1 to ${QUESTION_COUNT}`)
  .min(1, `must be a whole number from 1 to ${QUESTION_COUNT}`)
  .max(QUESTION_COUNT, `must be a whole number from 1 to ${QUESTION_COUNT}`);
