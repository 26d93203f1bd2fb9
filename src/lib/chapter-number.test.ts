import { describe, expect, it } from "vitest";
import { chapterNumber, readersPosition } from "./chapter-number.ts";

describe("the chapter number readers see (issue 34: 10)", () => {
  it("is the rail's: 00 for the first chapter of a level", () => {
    expect(chapterNumber(1)).toBe("00");
    expect(chapterNumber(2)).toBe("01");
    expect(chapterNumber(12)).toBe("11");
  });

  it("counts only the chapters readers see: drafts and deleted ones have none and take no place", () => {
    const list = [
      { id: 1, status: "published" as const },
      { id: 2, status: "draft" as const },
      { id: 3, deletedAt: "2026-11-27T10:00:00Z" },
      { id: 4 },
    ];
    expect(list.map((chapter) => readersPosition(list, chapter))).toEqual([1, null, null, 2]);
  });
});
