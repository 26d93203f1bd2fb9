import { describe, expect, it } from "vitest";
import { afterSeeing, isRollback } from "./versions.ts";

describe("the version rule (no rollback)", () => {
  it("refuses a served version older than the highest seen, and takes the same or a newer one", () => {
    expect(isRollback(undefined, 1)).toBe(false);
    expect(isRollback(5, 5)).toBe(false);
    expect(isRollback(5, 6)).toBe(false);
    expect(isRollback(5, 4)).toBe(true);
    expect(isRollback(2, 1)).toBe(true);
  });

  it("remembers only the highest version seen of each note, per notebook", () => {
    let seen = afterSeeing(null, "book-a", 7, 3);
    expect(seen).toEqual({ notebook: "book-a", notes: { "7": 3 } });
    seen = afterSeeing(seen, "book-a", 7, 2);
    expect(seen.notes["7"]).toBe(3);
    seen = afterSeeing(seen, "book-a", 7, 4);
    seen = afterSeeing(seen, "book-a", 9, 1);
    expect(seen).toEqual({ notebook: "book-a", notes: { "7": 4, "9": 1 } });
    // Another notebook (the old one erased, a new one started) starts afresh: its versions begin at 1 again.
    expect(afterSeeing(seen, "book-b", 7, 1)).toEqual({ notebook: "book-b", notes: { "7": 1 } });
  });

  it("after an erasure and a note written again, the older copies are refused", () => {
    // Seen: version 2 written, then erased (version 3), then written again (version 4).
    let seen = afterSeeing(null, "book", 1, 2);
    seen = afterSeeing(seen, "book", 1, 3);
    seen = afterSeeing(seen, "book", 1, 4);
    for (const old of [1, 2, 3]) expect(isRollback(seen.notes["1"], old), String(old)).toBe(true);
    expect(isRollback(seen.notes["1"], 4)).toBe(false);
  });
});
