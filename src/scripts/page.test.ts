import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chaptersFor as libChaptersFor, type ChapterEntry } from "../lib/level-chapters.ts";
import { canAccess as libCanAccess, levelOf as libLevelOf, LEVELS, type Level } from "../lib/levels.ts";
import { SIGNED_IN_COOKIE } from "../lib/storage-keys.ts";
import { MEMBER_STORAGE_KEYS } from "../lib/notebook/device-keys.ts";
import { canAccess, chaptersFor, levelOf, mayHoldSession, MEMBER_KEYS, readerMove, scrollPercent, selectedLevel, STEPS } from "./page.ts";

const chapter = (id: number, level: string | null, order = id): ChapterEntry => ({ id, slug: `c${id}`, title: `Chapter ${id}`, level, order });

describe("the page script's copy of the level rule", () => {
  const held: Array<Level | null> = [null, ...LEVELS];
  const values = [null, undefined, "", "operator", "Admin", 3, ...LEVELS];

  it("reads a stored level as src/lib/levels.ts does", () => {
    for (const value of values) expect(levelOf(value), String(value)).toBe(libLevelOf(value as string | null));
  });

  it("grants access as src/lib/levels.ts does, for every reader and level", () => {
    for (const reader of held) for (const required of LEVELS) expect(canAccess(reader, required), `${reader} ${required}`).toBe(libCanAccess(reader, required));
  });

  it("lists a level's chapters as src/lib/level-chapters.ts does", () => {
    const entry = fc.record({
      id: fc.integer({ min: 1, max: 50 }),
      slug: fc.string(),
      title: fc.string(),
      level: fc.constantFrom(null, "Unknown", ...LEVELS),
      order: fc.integer({ min: -3, max: 3 }),
    });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 12 }), fc.constantFrom(...LEVELS), fc.constantFrom(...held), (list, level, reader) => {
        expect(chaptersFor(list, level, reader)).toEqual(libChaptersFor(list, level, reader));
      }),
    );
  });
});

describe("what the page script forgets when a session it held has ended", () => {
  it("is what the notebook forgets at sign-out: every entry kept for the member", () => {
    expect([...MEMBER_KEYS].sort()).toEqual([...MEMBER_STORAGE_KEYS].sort());
  });
});

describe("mayHoldSession: whether the page asks the server about a session", () => {
  const signedIn = JSON.stringify({ isAuthenticated: true, accessLevel: "Architect" });
  it("asks when the browser holds the 'signed in' cookie, plain or __Host-, or a stored signed-in state", () => {
    expect(mayHoldSession(`${SIGNED_IN_COOKIE}=1`, null)).toBe(true);
    expect(mayHoldSession("sb_signed_in=1", null)).toBe(true);
    expect(mayHoldSession("book=x; __Host-sb_signed_in=1; other=2", null)).toBe(true);
    expect(mayHoldSession("", signedIn)).toBe(true);
  });
  it("never asks for a browser that holds neither: an anonymous reader costs the server nothing", () => {
    for (const cookies of ["", "sb_signed_in=", "sb_signed_in=0", "other=1"]) expect(mayHoldSession(cookies, null), cookies).toBe(false);
    for (const stored of [null, "", "{", "null", JSON.stringify({ isAuthenticated: false, accessLevel: null }), '"true"']) expect(mayHoldSession("", stored), String(stored)).toBe(false);
  });
});

describe("keys", () => {
  it("ArrowLeft and h go back, ArrowRight and l forward, nothing else moves", () => {
    expect([STEPS.ArrowLeft, STEPS.h, STEPS.ArrowRight, STEPS.l]).toEqual(["prev", "prev", "next", "next"]);
    for (const key of ["H", "L", "ArrowUp", "j", "Enter", " "]) expect(STEPS[key]).toBeUndefined();
  });
});

describe("scrollPercent", () => {
  it("runs from 0 at the top to 100 at the bottom", () => {
    expect(scrollPercent(0, 3000, 1000)).toBe(0);
    expect(scrollPercent(1000, 3000, 1000)).toBe(50);
    expect(scrollPercent(2000, 3000, 1000)).toBe(100);
  });

  it("stays within 0 to 100 when the page bounces past its ends", () => {
    expect(scrollPercent(-40, 3000, 1000)).toBe(0);
    expect(scrollPercent(2100, 3000, 1000)).toBe(100);
  });

  it("counts a page too short to scroll as read", () => {
    expect(scrollPercent(0, 800, 1000)).toBe(100);
  });
});

describe("selectedLevel", () => {
  it("keeps a stored level while the reader may read it, else Operator", () => {
    expect(selectedLevel("Architect", "Architect")).toBe("Architect");
    expect(selectedLevel("Architect", "Mastermind")).toBe("Architect");
    expect(selectedLevel("Mastermind", "Architect")).toBe("Operator");
    expect(selectedLevel("Architect", null)).toBe("Operator");
    expect(selectedLevel(null, "Mastermind")).toBe("Operator");
    expect(selectedLevel("nonsense", "Mastermind")).toBe("Operator");
  });
});

describe("readerMove: the chapter on screen against the live list", () => {
  const all = [chapter(1, "Operator", 2), chapter(2, null, 1), chapter(3, "Architect"), chapter(4, "Mastermind")];

  it("stays on a chapter of the selected level's list (a chapter with no level is Operator)", () => {
    expect(readerMove("c1", all, "Operator", null)).toEqual({ level: "Operator" });
    expect(readerMove("c2", all, null, null)).toEqual({ level: "Operator" });
    expect(readerMove("c3", all, "Architect", "Architect")).toEqual({ level: "Architect" });
  });

  it("selects the level of a chapter the reader followed a link to and may read", () => {
    expect(readerMove("c3", all, "Operator", "Architect")).toEqual({ level: "Architect" });
    expect(readerMove("c1", all, "Mastermind", "Mastermind")).toEqual({ level: "Operator" });
  });

  it("goes to the first chapter of the selected list when the chapter is gone or out of reach", () => {
    expect(readerMove("c9", all, "Operator", null)).toEqual({ level: "Operator", go: "c2" });
    expect(readerMove("c4", all, "Operator", "Architect")).toEqual({ level: "Operator", go: "c2" });
    // A stored level the reader may no longer read is no selection: Operator's list.
    expect(readerMove("c9", all, "Mastermind", "Architect")).toEqual({ level: "Operator", go: "c2" });
    expect(readerMove("c9", all, "Architect", "Architect")).toEqual({ level: "Architect", go: "c3" });
  });

  it("stays when the list is empty", () => {
    expect(readerMove("c9", [], "Operator", null)).toEqual({ level: "Operator", go: undefined });
  });
});

