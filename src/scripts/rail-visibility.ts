/**
 * When the side rail shows (SPEC.md sections 4 and 9): it hides on scrolling down and shows on
 * scrolling up or near the top. A movement smaller than the threshold (20 px, or 50 px when
 * scrolling fast) is ignored. "Fast" means more than 1 px per millisecond since the last decision.
 */
export const TOP_ZONE_PX = 50;
export const THRESHOLD_PX = 20;
export const FAST_THRESHOLD_PX = 50;
export const FAST_PX_PER_MS = 1;

export interface RailScrollState {
  visible: boolean;
  /** Scroll position and time of the last decision. */
  lastY: number;
  lastAt: number;
}

/** The next state for a scroll to `y` at time `at` (ms). */
export function nextRailState(state: RailScrollState, y: number, at: number): RailScrollState {
  if (y < TOP_ZONE_PX) return { visible: true, lastY: y, lastAt: at };
  const delta = y - state.lastY;
  const elapsed = Math.max(1, at - state.lastAt);
  const fast = Math.abs(delta) / elapsed > FAST_PX_PER_MS;
  if (Math.abs(delta) < (fast ? FAST_THRESHOLD_PX : THRESHOLD_PX)) return state;
  return { visible: delta < 0, lastY: y, lastAt: at };
}
