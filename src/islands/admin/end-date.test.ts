import { describe, expect, it } from "vitest";
import { endOfDay, lastDay } from "./end-date.ts";

describe("an access code's end date in the admin panel", () => {
  it("ends a code at the start of the day after the chosen one, local time, and reads it back as that day", () => {
    const iso = endOfDay("2027-01-31")!;
    const end = new Date(iso);
    expect([end.getFullYear(), end.getMonth(), end.getDate(), end.getHours(), end.getMinutes()]).toEqual([2027, 1, 1, 0, 0]);
    expect(lastDay(iso)).toBe("2027-01-31");
    expect(lastDay(endOfDay("2026-12-31"))).toBe("2026-12-31");
  });

  it("treats an empty day as never, and passes anything else on for the schema to refuse", () => {
    expect(endOfDay("")).toBeNull();
    expect(lastDay(null)).toBe("");
    expect(endOfDay("31/01/2027")).toBe("31/01/2027");
  });
});
