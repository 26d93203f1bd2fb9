import { describe, expect, it } from "vitest";
import { chunksFor, decodePostings, encodePostings, rootOf, stem, textWords } from "./static-search-index.ts";

describe("the static search index's words", () => {
  it("are roots: lowercased words, accents folded as the locked search folds them, a plural or verb ending off", () => {
    expect(["habits", "habit", "holding", "stories", "reacted", "jeża", "zażółć", "gas", "was"].map(rootOf)).toEqual([
      "habit",
      "habit",
      "hold",
      "stor",
      "react",
      "jeza",
      "zazolc",
      "gas",
      "was",
    ]);
    expect(stem("notes")).toBe("not");
    expect(textWords("Łódź, and “Café” 42.")).toEqual([
      { start: 0, end: 4, root: "lodz" },
      { start: 6, end: 9, root: "and" },
      { start: 11, end: 15, root: "cafe" },
      { start: 17, end: 19, root: "42" },
    ]);
  });

  it("keep each root's records as gaps and its weights as digits, and read them back", () => {
    const postings: Array<[number, number]> = [
      [0, 1],
      [5, 16],
      [6, 8],
      [1000, 3],
    ];
    const [records, weights] = encodePostings(postings);
    expect([records, weights]).toEqual(["0,5,1,rm", "0f72"]);
    expect(decodePostings(records, weights)).toEqual(postings);
    // A root most records hold keeps no weights: each reads as the middle one.
    expect(encodePostings(postings, true)[1]).toBe("");
    expect(decodePostings(records, "").map(([, weight]) => weight)).toEqual([8, 8, 8, 8]);
  });

  it("find the chunk a root falls in, or every chunk its prefix spans", () => {
    const chunks = ["", "b", "be", "bee", "bees", "c"];
    expect(chunksFor(chunks, "a", false)).toEqual([0]);
    expect(chunksFor(chunks, "b", false)).toEqual([1]);
    expect(chunksFor(chunks, "ba", false)).toEqual([1]);
    expect(chunksFor(chunks, "bee", false)).toEqual([3]);
    expect(chunksFor(chunks, "be", true)).toEqual([2, 3, 4]);
    expect(chunksFor(chunks, "bed", true)).toEqual([2]);
    expect(chunksFor(chunks, "zebra", true)).toEqual([5]);
    expect(chunksFor([""], "anything", true)).toEqual([0]);
  });
});
