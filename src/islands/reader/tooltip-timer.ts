/**
 * When a rail tooltip opens (SPEC.md section 9): 700 ms after the pointer or keyboard focus
 * arrives on a chapter button, or at once when another tooltip is open or closed less than 300 ms
 * ago (moving along the rail). Pure timing: the island decides what showing means.
 */
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

export interface TooltipTimer<T> {
  /** The pointer or focus arrived on `target`. */
  enter(target: T): void;
  /** It left (or the tooltip must go: Escape, the rail hiding). */
  leave(): void;
}

export function createTooltipTimer<T>(show: (target: T) => void, hide: () => void, clock: () => number = () => performance.now()): TooltipTimer<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let shown = false;
  let closedAt = -Infinity;
  const open = (target: T) => {
    shown = true;
    show(target);
  };
  return {
    enter(target) {
      clearTimeout(timer);
      if (shown || clock() - closedAt < TOOLTIP_SKIP_DELAY_MS) open(target);
      else timer = setTimeout(() => open(target), TOOLTIP_DELAY_MS);
    },
    leave() {
      clearTimeout(timer);
      if (!shown) return;
      shown = false;
      closedAt = clock();
      hide();
    },
  };
}
