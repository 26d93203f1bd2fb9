import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { answersForTotal } from "../../lib/assessment/fixtures.ts";
import { parseDescription } from "../../lib/assessment/description.ts";
import { MAX_TOTAL, MIN_TOTAL } from "../../lib/assessment/content.ts";
import { scoreAnswers } from "../../lib/assessment/scoring.ts";
import { ContentError } from "../content/book.ts";
import { defaultAssessmentFile, loadAssessment, parseAssessment } from "./content.ts";

const content = loadAssessment();

/** SPEC.md section 3: the 15 themes, in this order. */
const SPEC_THEMES = [
  "compliments",
  "achievement",
  "discomfort",
  "what runs your life",
  "fears of being discovered",
  "behaviour in a room",
  "criticism",
  "decision drivers",
  "uncertainty",
  "the mirror",
  "desired image",
  "failure",
  "change",
  "motivation",
  "stress",
];

describe("content/assessment.yaml", () => {
  it("asks the spec's 15 themes in the spec's order, four options each", () => {
    expect(content.questions.map((q) => q.theme)).toEqual(SPEC_THEMES);
    for (const q of content.questions) expect(q.options.map((o) => o.value)).toEqual(["A", "B", "C", "D"]);
  });

  it("has three to five dimensions, each fed by at least three questions", () => {
    expect(content.dimensions.length).toBeGreaterThanOrEqual(3);
    expect(content.dimensions.length).toBeLessThanOrEqual(5);
    for (const d of content.dimensions) {
      expect(content.questions.filter((q) => q.dimension === d.id).length).toBeGreaterThanOrEqual(3);
    }
  });

  it("does not always put the best answer in the same position", () => {
    const best = new Set(content.questions.map((q) => q.options.find((o) => o.points === 4)!.value));
    expect(best.size).toBe(4);
  });

  it.each(content.bands.flatMap((band) => [[band.min, band.level], [band.max, band.level]] as const))(
    "scores a total of %i as %s (every band boundary)",
    (total, level) => {
      const score = scoreAnswers(content, answersForTotal(content, total));
      expect(score).toMatchObject({ totalScore: total, level });
      expect(Object.values(score.categoryScores).reduce((a, b) => a + b, 0)).toBe(total);
    },
  );

  it("covers every total from the lowest to the highest", () => {
    expect(content.bands[0]!.min).toBe(MIN_TOTAL);
    expect(content.bands.at(-1)!.max).toBe(MAX_TOTAL);
  });

  it("gives every band a multi-paragraph description in the spec's layout", () => {
    for (const band of content.bands) {
      const kinds = parseDescription(band.description).map((b) => b.kind);
      expect(kinds.filter((k) => k === "paragraph").length).toBeGreaterThanOrEqual(2);
      expect(kinds).toContain("bullets");
      expect(kinds).toContain("lines");
      expect(kinds.at(-1)).toBe("quote");
    }
  });
});

describe("parseAssessment", () => {
  const source = fs.readFileSync(defaultAssessmentFile, "utf8");

  it("names the file and the field when the content is wrong", () => {
    const broken = source.replace("- min: 27", "- min: 28");
    expect(() => parseAssessment(broken, "content/assessment.yaml")).toThrow(ContentError);
    expect(() => parseAssessment(broken, "content/assessment.yaml")).toThrow(/^content\/assessment\.yaml: bands\.1\.min must be 27/);
  });

  it("names the file when the YAML itself is broken", () => {
    expect(() => parseAssessment("questions:\n  - id: 1\n bad indent: [", "x.yaml")).toThrow(/^x\.yaml: not valid YAML/);
  });
});
