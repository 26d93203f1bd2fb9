import { describe, expect, it } from "vitest";
import { nextRailState, type RailScrollState } from "./rail-visibility.ts";

const start: RailScrollState = { visible: true, lastY: 0, lastAt: 0 };

describe("nextRailState", () => {
  it("hides on a slow scroll down past 20 px and shows again on a scroll up past 20 px", () => {
    const down = nextRailState(start, 120, 1000);
    expect(down.visible).toBe(false);
    const up = nextRailState(down, 95, 2000);
    expect(up.visible).toBe(true);
  });

  it("ignores small movements: under 20 px when slow", () => {
    const down = nextRailState(start, 200, 1000);
    expect(nextRailState(down, 185, 2000)).toBe(down);
  });

  it("asks for 50 px when scrolling fast", () => {
    const down = nextRailState(start, 400, 1000);
    // 40 px in 10 ms is fast: below the 50 px threshold, nothing changes
    expect(nextRailState(down, 360, 1010)).toBe(down);
    expect(nextRailState(down, 340, 1010).visible).toBe(true);
  });

  it("always shows within 50 px of the top", () => {
    const hidden = { visible: false, lastY: 300, lastAt: 0 };
    expect(nextRailState(hidden, 49, 5000).visible).toBe(true);
  });
});
