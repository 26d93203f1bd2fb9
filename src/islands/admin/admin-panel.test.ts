import { describe, expect, it } from "vitest";
import { moveAnnouncement } from "../../stores/admin-announcer.ts";
import { contentPreview } from "./ChapterCard.tsx";
import { scoreBuckets } from "./ScoreChart.tsx";
import { moved } from "./sortable-list.ts";

describe("contentPreview", () => {
  it("keeps 100 characters and marks the cut", () => {
    expect(contentPreview("a".repeat(100))).toBe("a".repeat(100));
    expect(contentPreview("b".repeat(101))).toBe(`${"b".repeat(100)}...`);
  });
});

describe("scoreBuckets", () => {
  it("covers 15 to 60 in 5-point buckets, the last taking in 60", () => {
    const buckets = scoreBuckets([15, 19, 20, 37, 55, 60]);
    expect(buckets.map((b) => b.label)).toEqual(["15–19", "20–24", "25–29", "30–34", "35–39", "40–44", "45–49", "50–54", "55–60"]);
    expect(buckets.map((b) => b.count)).toEqual([2, 1, 0, 0, 1, 0, 0, 0, 2]);
  });
  it("counts every score once, even outside the usual range", () => {
    const scores = [3, 15, 61, 44];
    expect(scoreBuckets(scores).reduce((sum, b) => sum + b.count, 0)).toBe(scores.length);
  });
});

describe("moved", () => {
  it("moves one item and leaves the input alone", () => {
    const list = ["a", "b", "c", "d"];
    expect(moved(list, 3, 0)).toEqual(["d", "a", "b", "c"]);
    expect(moved(list, 0, 2)).toEqual(["b", "c", "a", "d"]);
    expect(list).toEqual(["a", "b", "c", "d"]);
  });
});

it("announces a move with its 1-based position", () => {
  expect(moveAnnouncement("Signal and Noise", 2, 4)).toBe("Moved Signal and Noise to position 2 of 4");
});
