import { describe, expect, it } from "vitest";
import { averageLine, sessionsFigure, streakFigure, streakNote } from "./reading-figures.ts";

describe("a member's reading figures (issue 34: 2)", () => {
  it("says in words what a new member has not done yet, never a zero", () => {
    for (const text of [streakFigure(0), streakNote(0), sessionsFigure(0), averageLine({ sessions: 0, averageMinutes: 0 })]) {
      expect(text).not.toMatch(/\b0\b/);
    }
    expect(streakFigure(0)).toBe("Not started");
    expect(sessionsFigure(0)).toBe("None yet");
    expect(averageLine({ sessions: 0, averageMinutes: 0 })).toBe("Your first reading session shows here.");
  });

  it("calls a session shorter than a minute so, and counts the rest", () => {
    expect(averageLine({ sessions: 1, averageMinutes: 0 })).toBe("Average session: under a minute");
    expect(averageLine({ sessions: 3, averageMinutes: 1 })).toBe("Average session: 1 minute");
    expect(averageLine({ sessions: 3, averageMinutes: 12 })).toBe("Average session: 12 minutes");
    expect(sessionsFigure(24)).toBe("24");
  });

  it("names the first day of a streak, and counts days after it", () => {
    expect(streakFigure(1)).toBe("1 day");
    expect(streakNote(1)).toBe("Your first day. Read tomorrow to make it two.");
    expect(streakFigure(7)).toBe("7 days");
  });
});
