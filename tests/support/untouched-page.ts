/**
 * A page left alone: opened with no input at all and waited on until it has done everything it
 * would do by itself. Instead of a long fixed quiet period, the wait is on events: the load, the
 * fonts and images, every request the page starts finishing, and every timer the page set for the
 * next `horizonMs`, run at once on Playwright's clock (installed before the page opens, so time
 * otherwise flows as usual). A short quiet period after each step catches a request that a
 * response or a timer starts (the page's images, fonts and data among them). Used by the first-view and the JavaScript-before-interaction budgets.
 */
import type { Page, Request } from "@playwright/test";

export interface UntouchedOptions {
  /** How far ahead the page's timers are run. */
  horizonMs?: number;
  /** How long the network must stay quiet (no request pending or started) to count as settled. */
  quietMs?: number;
}

/** Counts a page's requests in flight and when the last one started or ended. */
function trackRequests(page: Page) {
  const pending = new Set<Request>();
  let lastActivity = Date.now();
  const start = (request: Request) => {
    pending.add(request);
    lastActivity = Date.now();
  };
  const end = (request: Request) => {
    pending.delete(request);
    lastActivity = Date.now();
  };
  page.on("request", start);
  page.on("requestfinished", end);
  page.on("requestfailed", end);
  return {
    async quiet(quietMs: number, deadline: number): Promise<void> {
      while (pending.size > 0 || Date.now() - lastActivity < quietMs) {
        if (Date.now() > deadline) throw new Error(`The page kept the network busy: ${[...pending].map((r) => r.url()).join(", ")}`);
        await page.waitForTimeout(50);
      }
    },
    stop() {
      page.off("request", start);
      page.off("requestfinished", end);
      page.off("requestfailed", end);
    },
  };
}

/** Opens `url` in `page` (a fresh one: its clock is installed here) and resolves once it has settled (see above). */
export async function openUntouched(page: Page, url: string, { horizonMs = 60_000, quietMs = 300 }: UntouchedOptions = {}): Promise<void> {
  await page.clock.install();
  const requests = trackRequests(page);
  const deadline = Date.now() + 60_000;
  try {
    await page.goto(url, { waitUntil: "load" });
    // (Images and late fonts are requests like any other: the quiet below waits for them.)
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    await requests.quiet(quietMs, deadline);
    // Whatever the page set out to do later (a timer, an interval's first turns), now.
    await page.clock.runFor(horizonMs);
    await requests.quiet(quietMs, deadline);
  } finally {
    requests.stop();
  }
}
