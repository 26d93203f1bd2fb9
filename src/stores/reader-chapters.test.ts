import { describe, expect, it } from "vitest";
import { chaptersFor, type ChapterEntry } from "./reader-chapters.ts";

const entry = (id: number, title: string, level: string | null, order: number): ChapterEntry => ({ id, slug: `chapter-${id}`, title, level, order });

describe("chaptersFor", () => {
  const list = [entry(3, "c", "Architect", 0), entry(2, "b", null, 1), entry(1, "a", "Operator", 1), entry(4, "d", "Operator", 0)];

  it("keeps the level's chapters in reading order; no level counts as Operator", () => {
    expect(chaptersFor(list, "Operator", null).map((c) => c.id)).toEqual([4, 1, 2]);
  });

  it("gives nothing of a level the reader may not open", () => {
    expect(chaptersFor(list, "Architect", null)).toEqual([]);
    expect(chaptersFor(list, "Architect", "Operator")).toEqual([]);
    expect(chaptersFor(list, "Architect", "Mastermind").map((c) => c.id)).toEqual([3]);
  });
});
