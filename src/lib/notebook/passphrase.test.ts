import { describe, expect, it } from "vitest";
import { passphraseScore } from "./passphrase-strength.ts";
import { ACCEPTED_SCORE, strengthOf } from "./passphrase.ts";

describe("the passphrase rule and its meter: one figure", () => {
  it("refuses what anyone would guess, however long, and takes a few unrelated words", () => {
    for (const weak of ["aaaaaaaaaa", "password12", "qwertyuiop", "1234567890", "iloveyou2026", ""]) {
      expect(strengthOf(passphraseScore(weak)).ok, weak).toBe(false);
    }
    for (const strong of ["a passphrase only I know", "copper kettle under rain", "another passphrase, chosen again"]) {
      expect(strengthOf(passphraseScore(strong)), strong).toMatchObject({ ok: true });
    }
  });

  it("takes Good and Strong only, and labels each score", () => {
    expect([0, 1, 2, 3, 4].map((score) => strengthOf(score))).toEqual([
      { score: 0, label: "Very weak", ok: false },
      { score: 1, label: "Weak", ok: false },
      { score: 2, label: "Fair", ok: false },
      { score: 3, label: "Good", ok: true },
      { score: 4, label: "Strong", ok: true },
    ]);
    expect(ACCEPTED_SCORE).toBe(3);
  });

  it("counts the words it is told are known (the code's login) against a passphrase", () => {
    const login = "architect482913";
    expect(passphraseScore(`${login}!`, [login])).toBeLessThan(passphraseScore(`${login}!`));
  });
});
