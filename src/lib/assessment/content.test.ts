import { describe, expect, it } from "vitest";
import { assessmentContentSchema, publicQuestions } from "./content.ts";
import { sampleContent } from "./fixtures.ts";

const problem = (mutate: (content: ReturnType<typeof sampleContent>) => void) => {
  const content = sampleContent();
  mutate(content);
  const parsed = assessmentContentSchema.safeParse(content);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0]!;
  return `${issue.path.join(".")} ${issue.message}`;
};

describe("assessmentContentSchema", () => {
  it("accepts a valid model", () => {
    expect(problem(() => {})).toBeNull();
  });

  it.each<[string, (c: ReturnType<typeof sampleContent>) => void, RegExp]>([
    ["14 questions", (c) => c.questions.pop(), /^questions must list exactly 15/],
    ["ids out of order", (c) => ([c.questions[0]!.id, c.questions[1]!.id] = [2, 1]), /^questions\.0\.id must be 1/],
    ["three options", (c) => c.questions[4]!.options.pop(), /^questions\.4\.options must list exactly 4/],
    ["options out of order", (c) => ([c.questions[2]!.options[0]!.value, c.questions[2]!.options[1]!.value] = ["B", "A"]), /^questions\.2\.options\.0\.value must be A/],
    ["points used twice", (c) => (c.questions[7]!.options[0]!.points = 2), /^questions\.7\.options must use the points 1, 2, 3 and 4/],
    ["points out of range", (c) => (c.questions[7]!.options[0]!.points = 5), /^questions\.7\.options\.0\.points must be 1, 2, 3 or 4/],
    ["an unknown dimension", (c) => (c.questions[0]!.dimension = "nope"), /^questions\.0\.dimension must be one of the dimension ids: alpha, beta, gamma/],
    ["a dimension fed by too few questions", (c) => [0, 3, 6].forEach((i) => (c.questions[i]!.dimension = "gamma")), /^dimensions\.0\.id is fed by 2 questions/],
    ["two dimensions", (c) => c.dimensions.splice(2), /^dimensions must list 3 to 5/],
    ["a gap between bands", (c) => (c.bands[1]!.min = 31), /^bands\.1\.min must be 30/],
    ["an overlap between bands", (c) => (c.bands[1]!.min = 29), /^bands\.1\.min must be 30/],
    ["bands not reaching 60", (c) => (c.bands[2]!.max = 59), /^bands\.2\.max must be 60/],
    ["bands not starting at 15", (c) => (c.bands[0]!.min = 16), /^bands\.0\.min must be 15/],
    ["a repeated level", (c) => (c.bands[2]!.level = "Low"), /^bands\.2\.level repeats "Low"/],
    ["a description without a quote", (c) => (c.bands[0]!.description = c.bands[0]!.description.replace(/"/g, "")), /^bands\.0\.description needs exactly one paragraph wrapped in double quotes/],
    ["an unexpected field", (c) => Object.assign(c.questions[0]!, { score: 3 }), /^questions\.0 /],
  ])("rejects %s, naming the field", (_name, mutate, message) => {
    expect(problem(mutate)).toMatch(message);
  });
});

describe("publicQuestions", () => {
  it("gives the browser text and options, never points or dimensions", () => {
    const [first] = publicQuestions(sampleContent());
    expect(first).toEqual({
      id: 1,
      text: "Question 1?",
      options: [
        { value: "A", text: "Option A of 1" },
        { value: "B", text: "Option B of 1" },
        { value: "C", text: "Option C of 1" },
        { value: "D", text: "Option D of 1" },
      ],
    });
    expect(JSON.stringify(publicQuestions(sampleContent()))).not.toMatch(/points|dimension/);
  });
});
