import { describe, expect, it } from "vitest";
import { readingDays } from "./streak.ts";

const now = new Date("2026-11-22T10:00:00Z");

describe("readingDays", () => {
  it("gives a new reader honest zeros", () => {
    expect(readingDays([], now)).toEqual({ streakDays: 0, week: [false, false, false, false, false, false, false] });
  });

  it("counts consecutive days ending today", () => {
    expect(readingDays(["2026-11-22", "2026-11-21", "2026-11-20", "2026-11-18"], now)).toEqual({
      streakDays: 3,
      week: [false, false, true, false, true, true, true],
    });
  });

  it("keeps yesterday's streak alive until today ends", () => {
    expect(readingDays(["2026-11-21", "2026-11-20"], now).streakDays).toBe(2);
  });

  it("breaks the streak after a day without reading", () => {
    expect(readingDays(["2026-11-20", "2026-11-19"], now).streakDays).toBe(0);
  });

  it("counts streaks longer than the week shown", () => {
    const days = Array.from({ length: 12 }, (_, i) => new Date(now.getTime() - i * 86_400_000).toISOString().slice(0, 10));
    expect(readingDays(days, now)).toEqual({ streakDays: 12, week: Array(7).fill(true) });
  });
});
