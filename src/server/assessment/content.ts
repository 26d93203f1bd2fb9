/**
 * content/assessment.yaml, read and validated once per process. The build (src/pages/assessment.astro)
 * and the server start (host.ts) both call `loadAssessment`, so a broken file stops either with a
 * message naming the file and the field.
 */
import fs from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { assessmentContentSchema, type AssessmentContent } from "../../lib/assessment/content.ts";
import { ContentError } from "../content/book.ts";

/**
 * Beside the sources when run from the repository; from the working directory when bundled (a
 * Netlify Function's bundle lives elsewhere, with included files under the working directory).
 */
export const defaultAssessmentFile = [
  path.resolve(import.meta.dirname, "../../../content/assessment.yaml"),
  path.resolve(process.cwd(), "content/assessment.yaml"),
].find((file) => fs.existsSync(file)) ?? path.resolve(process.cwd(), "content/assessment.yaml");

const cache = new Map<string, AssessmentContent>();

/** The scan's questions, dimensions and bands. Throws a ContentError naming the file and field. */
export function loadAssessment(file: string = defaultAssessmentFile): AssessmentContent {
  const cached = cache.get(file);
  if (cached) return cached;
  const content = parseAssessment(fs.readFileSync(file, "utf8"), file);
  cache.set(file, content);
  return content;
}

/** Validates the text of an assessment file; `file` only names it in errors. */
export function parseAssessment(source: string, file: string): AssessmentContent {
  let data: unknown;
  try {
    data = parseYaml(source);
  } catch (error) {
    throw new ContentError(`${file}: not valid YAML (${(error as Error).message.split("\n")[0]}). Check the indentation near that line.`);
  }
  const parsed = assessmentContentSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ContentError(`${file}: ${issue.path.join(".") || "the file"} ${issue.message}.`);
  }
  return parsed.data;
}
