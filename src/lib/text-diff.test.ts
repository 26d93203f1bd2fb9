import { describe, expect, it } from "vitest";
import { changed, diffLines } from "./text-diff.ts";

const render = (before: string, after: string) =>
  diffLines(before, after).map((line) => `${line.kind === "same" ? " " : line.kind === "added" ? "+" : "-"}${line.text}`);

describe("diffLines", () => {
  it("keeps equal texts as they are", () => {
    expect(render("a\nb", "a\nb")).toEqual([" a", " b"]);
    expect(changed(diffLines("a\nb", "a\nb"))).toBe(false);
  });

  it("shows a changed line as removed then added, between the lines kept", () => {
    expect(render("## Title\n\nOld words.\n\nEnd.", "## Title\n\nNew words.\n\nEnd.")).toEqual([" ## Title", " ", "-Old words.", "+New words.", " ", " End."]);
  });

  it("finds lines inserted and removed anywhere", () => {
    expect(render("a\nb\nc\nd", "a\nc\nx\nd\ne")).toEqual([" a", "-b", " c", "+x", " d", "+e"]);
    expect(render("", "one")).toEqual(["-", "+one"]);
  });

  it("rebuilds both texts from the diff", () => {
    const before = Array.from({ length: 300 }, (_, i) => `line ${i % 17} ${i % 5}`).join("\n");
    const after = before.split("\n").filter((_, i) => i % 7 !== 0).map((line, i) => (i % 11 === 0 ? `${line}!` : line)).join("\n");
    const lines = diffLines(before, after);
    expect(lines.filter((l) => l.kind !== "added").map((l) => l.text).join("\n")).toBe(before);
    expect(lines.filter((l) => l.kind !== "removed").map((l) => l.text).join("\n")).toBe(after);
    expect(changed(lines)).toBe(true);
  });
});
