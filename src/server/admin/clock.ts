/** The admin handlers' clock (deletion times, the 24-hour restore window); tests move it. */
let clock: () => Date = () => new Date();

export const adminNow = (): Date => clock();

/** Replaces the clock; call with no argument to go back to the system time. */
export function useAdminClock(next?: () => Date): void {
  clock = next ?? (() => new Date());
}
