import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createTooltipTimer, TOOLTIP_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from "./tooltip-timer.ts";

describe("the rail's tooltip timing", () => {
  let shown: string[];
  let timer: ReturnType<typeof createTooltipTimer<string>>;
  beforeEach(() => {
    vi.useFakeTimers();
    shown = [];
    timer = createTooltipTimer<string>(
      (target) => shown.push(target),
      () => shown.push("hidden"),
      () => Date.now(),
    );
  });
  afterEach(() => vi.useRealTimers());

  it("opens 700 ms after arriving, not before; leaving earlier opens nothing", () => {
    timer.enter("01");
    vi.advanceTimersByTime(TOOLTIP_DELAY_MS - 1);
    expect(shown).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(shown).toEqual(["01"]);
    timer.leave();
    vi.advanceTimersByTime(TOOLTIP_SKIP_DELAY_MS);
    timer.enter("02");
    timer.leave();
    vi.advanceTimersByTime(TOOLTIP_DELAY_MS * 2);
    expect(shown).toEqual(["01", "hidden"]);
  });

  it("moving to the next button within 300 ms of the last tooltip opens the next at once", () => {
    timer.enter("01");
    vi.advanceTimersByTime(TOOLTIP_DELAY_MS);
    timer.leave();
    vi.advanceTimersByTime(TOOLTIP_SKIP_DELAY_MS - 1);
    timer.enter("02");
    expect(shown).toEqual(["01", "hidden", "02"]);
    timer.leave();
    vi.advanceTimersByTime(TOOLTIP_SKIP_DELAY_MS);
    timer.enter("03");
    expect(shown).toEqual(["01", "hidden", "02", "hidden"]);
    vi.advanceTimersByTime(TOOLTIP_DELAY_MS);
    expect(shown.at(-1)).toBe("03");
  });
});
