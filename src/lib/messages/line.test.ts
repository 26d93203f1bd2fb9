import { describe, expect, it } from "vitest";
import { dueWords } from "./line.ts";

describe("when an answer is due, in words", () => {
  const now = new Date("2026-11-28T12:00:00Z");
  it("counts down in hours, then minutes, and says by how much it is overdue", () => {
    expect(dueWords("2026-11-28T15:00:00Z", now)).toEqual({ text: "due in 3 h", overdue: false });
    expect(dueWords("2026-11-28T12:25:00Z", now)).toEqual({ text: "due in 25 min", overdue: false });
    expect(dueWords("2026-11-28T10:00:00Z", now)).toEqual({ text: "overdue by 2 h", overdue: true });
    expect(dueWords("2026-11-28T11:59:30Z", now)).toEqual({ text: "overdue by 1 min", overdue: true });
  });
});
