import { describe, expect, it } from "vitest";
import { nextAttemptAfterFailure, retryDelay, RETRY_WINDOW_MS } from "./backoff.ts";

describe("retry backoff", () => {
  it("doubles from 30 s, at most 4 hours apart", () => {
    expect([1, 2, 3, 4, 9, 10, 20].map(retryDelay)).toEqual([30_000, 60_000, 120_000, 240_000, 7_680_000, 14_400_000, 14_400_000]);
  });

  it("never schedules past the window, and stops once it has ended", () => {
    const queued = Date.parse("2026-11-23T00:00:00Z");
    const giveUp = new Date(queued + RETRY_WINDOW_MS);
    expect(nextAttemptAfterFailure(1, new Date(queued), giveUp)).toEqual(new Date(queued + 30_000));
    expect(nextAttemptAfterFailure(12, new Date(giveUp.getTime() - 60_000), giveUp)).toEqual(giveUp);
    expect(nextAttemptAfterFailure(13, giveUp, giveUp)).toBeNull();
  });
});
