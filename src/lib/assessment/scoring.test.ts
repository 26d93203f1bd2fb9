import { describe, expect, it } from "vitest";
import { MAX_TOTAL, MIN_TOTAL } from "./content.ts";
import { answersForTotal, sampleContent } from "./fixtures.ts";
import { QUESTION_NUMBERS, unansweredQuestions, type Answers } from "./model.ts";
import { bandFor, scoreAnswers } from "./scoring.ts";

const content = sampleContent();
const all = (answer: "A" | "B" | "C" | "D"): Answers => Object.fromEntries(QUESTION_NUMBERS.map((n) => [n, answer]));

describe("scoreAnswers", () => {
  it("adds the chosen options' points and splits them by dimension", () => {
    const answers = all("A");
    answers[1] = "D"; // alpha +3
    answers[2] = "C"; // beta +2
    answers[6] = "B"; // gamma +1
    expect(scoreAnswers(content, answers)).toMatchObject({
      totalScore: 21,
      level: "Low",
      categoryScores: { alpha: 8, beta: 7, gamma: 6 },
    });
  });

  it("reaches the lowest and highest totals", () => {
    expect(scoreAnswers(content, all("A"))).toMatchObject({ totalScore: MIN_TOTAL, categoryScores: { alpha: 5, beta: 5, gamma: 5 } });
    expect(scoreAnswers(content, all("D"))).toMatchObject({ totalScore: MAX_TOTAL, level: "High", categoryScores: { alpha: 20, beta: 20, gamma: 20 } });
  });

  it("gives every dimension a score, and the dimension scores add up to the total", () => {
    for (const total of [15, 33, 47, 60]) {
      const score = scoreAnswers(content, answersForTotal(content, total));
      expect(Object.keys(score.categoryScores).sort()).toEqual(["alpha", "beta", "gamma"]);
      expect(Object.values(score.categoryScores).reduce((a, b) => a + b, 0)).toBe(total);
    }
  });

  it.each(content.bands.flatMap((band) => [[band.min, band.level], [band.max, band.level]] as const))(
    "puts a total of %i in the band %s",
    (total, level) => {
      const score = scoreAnswers(content, answersForTotal(content, total));
      expect(score.totalScore).toBe(total);
      expect(score.level).toBe(level);
      expect(score.band.description).toContain(level);
    },
  );

  it("refuses an incomplete set of answers, naming what is missing", () => {
    const answers = all("B");
    delete answers[3];
    delete answers[15];
    expect(unansweredQuestions(answers)).toEqual([3, 15]);
    expect(() => scoreAnswers(content, answers)).toThrow("Questions 3, 15 are not answered.");
  });
});

describe("bandFor", () => {
  it("refuses a total outside every band", () => {
    expect(() => bandFor(content, 14)).toThrow(RangeError);
    expect(() => bandFor(content, 61)).toThrow(RangeError);
  });
});
