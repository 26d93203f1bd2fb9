import { describe, expect, it } from "vitest";
import { bandOfScore, funnelFrom, weekStarts } from "./scan-funnel.ts";

describe("the scan funnel", () => {
  it("counts reach and stops from the furthest answers", () => {
    const funnel = funnelFrom([
      { furthest: 0, completed: false, scans: 10 },
      { furthest: 1, completed: false, scans: 4 },
      { furthest: 15, completed: false, scans: 2 },
      { furthest: 15, completed: true, scans: 5 },
    ]);
    // A visit opens a scan; only a saved answer starts it.
    expect(funnel).toMatchObject({ opened: 21, started: 11, completed: 5 });
    expect(funnel.steps[0]).toEqual({ step: 1, reached: 21, stopped: 10 });
    expect(funnel.steps[1]).toEqual({ step: 2, reached: 11, stopped: 4 });
    expect(funnel.steps[2]).toEqual({ step: 3, reached: 7, stopped: 0 });
    expect(funnel.steps[15]).toEqual({ step: "contact", reached: 7, stopped: 2 });
    expect(funnel.steps).toHaveLength(16);
  });

  it("weeks start on Monday (UTC) and bands hold their ranges", () => {
    expect(weekStarts(new Date("2026-11-23T23:00:00Z"), 3)).toEqual(["2026-11-09", "2026-11-16", "2026-11-23"]);
    expect(weekStarts(new Date("2026-11-29T23:00:00Z"), 1)).toEqual(["2026-11-23"]);
    const bands = [
      { min: 15, max: 26, level: "Low", description: "" },
      { min: 27, max: 60, level: "High", description: "" },
    ];
    expect(bandOfScore(bands, 26)?.level).toBe("Low");
    expect(bandOfScore(bands, 27)?.level).toBe("High");
    expect(bandOfScore(bands, null)).toBeUndefined();
  });
});
