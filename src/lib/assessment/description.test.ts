import { describe, expect, it } from "vitest";
import { descriptionProblem, parseDescription } from "./description.ts";

const sample = [
  "First paragraph\nstill first.",
  "Second paragraph.",
  "What this tells us:\n• One thing.\n• Another thing.",
  "Next move:\nDo this.\nThen that.",
  '"A closing line."',
].join("\n\n");

describe("parseDescription", () => {
  it("splits at blank lines and recognises each kind of paragraph", () => {
    expect(parseDescription(sample)).toEqual([
      { kind: "paragraph", text: "First paragraph\nstill first." },
      { kind: "paragraph", text: "Second paragraph." },
      { kind: "bullets", heading: "What this tells us:", items: ["One thing.", "Another thing."] },
      { kind: "lines", heading: "Next move:", lines: ["Do this.", "Then that."] },
      { kind: "quote", text: '"A closing line."' },
    ]);
  });

  it("treats blank lines with spaces and Windows line ends as paragraph breaks", () => {
    expect(parseDescription("One.\r\n  \r\nTwo.")).toEqual([
      { kind: "paragraph", text: "One." },
      { kind: "paragraph", text: "Two." },
    ]);
  });

  it("keeps text on the heading's own line and curly quotes", () => {
    expect(parseDescription("Next move: call someone.")).toEqual([{ kind: "lines", heading: "Next move:", lines: ["call someone."] }]);
    expect(parseDescription("“Curly.”")).toEqual([{ kind: "quote", text: "“Curly.”" }]);
  });

  it("does not take a paragraph that only starts with a quote for a quote", () => {
    expect(parseDescription('"Partly" quoted text.')).toEqual([{ kind: "paragraph", text: '"Partly" quoted text.' }]);
  });
});

describe("descriptionProblem", () => {
  it("accepts the documented layout", () => {
    expect(descriptionProblem(sample)).toBeNull();
  });

  it.each([
    ["no plain paragraph", sample.split("\n\n").slice(2).join("\n\n"), /plain paragraph/],
    ["no bullets block", sample.replace(/What this tells us:[^\n]*\n[^]*?(?=\n\nNext)/, "Plain."), /What this tells us/],
    ["a bullets line without a bullet", sample.replace("• Another", "Another"), /must start with/],
    ["no next move", sample.replace("Next move:", "Later:"), /Next move/],
    ["no quote", sample.replace('"A closing line."', "A closing line."), /double quotes/],
  ])("rejects %s", (_name, text, message) => {
    expect(descriptionProblem(text)).toMatch(message);
  });
});
