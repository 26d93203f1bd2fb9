import { describe, expect, it } from "vitest";
import { ACCENTED_LETTERS, FOLDED_LETTERS, foldAccents } from "./accent-folding.ts";

/** Unicode's own decomposition of a letter, its marks dropped. */
const decompose = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "");

describe("accent folding", () => {
  it("writes Polish and Western European letters without their diacritics, one letter for one", () => {
    expect(foldAccents("Zażółć gęślą jaźń")).toBe("Zazolc gesla jazn");
    expect(foldAccents("jeża")).toBe("jeza");
    expect(foldAccents("ĄĆĘŁŃÓŚŹŻ ąćęłńóśźż")).toBe("ACELNOSZZ acelnoszz");
    expect(foldAccents("Crème brûlée à la française, Smørrebrød, Ærø, São Paulo, Müller, Ñandú")).toBe(
      "Creme brulee a la francaise, Smorrebrod, Æro, Sao Paulo, Muller, Nandu",
    );
    expect(foldAccents("Dvořák, Đoković, Erdős, Țară")).toBe("Dvorak, Dokovic, Erdos, Tara");
    // As the static index folds: any letter Unicode decomposes, in any script, and kana's voicing kept.
    expect(foldAccents("Ωμέγα, Tiếng Việt, ガイド, 한국어")).toBe("Ωμεγα, Tieng Viet, ガイド, 한국어");
    expect(foldAccents("Cafe\u0301")).toBe("Cafe");
    // Everything else is left as it is: plain letters, digits, marks of punctuation, ligatures.
    const other = "The quick brown fox, 42 — “quoted” ß æ œ 東京 ✓";
    expect(foldAccents(other)).toBe(other);
  });

  it("folds each letter of the SQL function's list to its plain letter there, as Unicode's own decomposition gives where it gives one", () => {
    const letters = Array.from(ACCENTED_LETTERS);
    const plain = Array.from(FOLDED_LETTERS);
    expect(plain).toHaveLength(letters.length);
    expect(new Set(letters).size).toBe(letters.length);
    expect(foldAccents(ACCENTED_LETTERS)).toBe(FOLDED_LETTERS);
    expect(FOLDED_LETTERS).toMatch(/^[A-Za-z]+$/);
    for (const [i, letter] of letters.entries()) {
      // Both cases are on the list, and fold alike.
      expect(foldAccents(letter.toLowerCase()), letter).toBe(plain[i]!.toLowerCase());
      expect(foldAccents(letter.toUpperCase()), letter).toBe(plain[i]!.toUpperCase());
      const decomposed = decompose(letter);
      if (decomposed !== letter) expect(decomposed, letter).toBe(plain[i]);
    }
    expect(letters.filter((letter) => decompose(letter) === letter).sort()).toEqual(["Đ", "Ł", "Ø", "đ", "ł", "ø"].sort());
  });
});
