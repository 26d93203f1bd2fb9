import { describe, expect, it } from "vitest";
import { ACCENTED_LETTERS, FOLDED_LETTERS, foldAccents, spellForStaticIndex, spellFromStaticIndex } from "./accent-folding.ts";

/** What Pagefind does to a word before it looks it up or indexes it: marks dropped after NFD. */
const pagefindFold = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "");

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
      const decomposed = pagefindFold(letter);
      if (decomposed !== letter) expect(decomposed, letter).toBe(plain[i]);
    }
    expect(letters.filter((letter) => pagefindFold(letter) === letter).sort()).toEqual(["Đ", "Ł", "Ø", "đ", "ł", "ø"].sort());
  });

  it("spells the letters Unicode does not decompose so that the static index folds them too, and spells them back", () => {
    const title = "Zażółć gęślą jaźń: Łódź, Ørsted, Đakovo";
    const indexed = spellForStaticIndex(title);
    expect(indexed).not.toBe(title);
    // What the static index does to the text and to a query: the same as folding.
    expect(pagefindFold(indexed)).toBe(foldAccents(title));
    expect(pagefindFold(spellForStaticIndex("zażółć"))).toBe("zazolc");
    expect(spellFromStaticIndex(indexed)).toBe(title);
    // The text around a mark the index adds (an excerpt's <mark>) is written back the same way.
    expect(spellFromStaticIndex(`<mark>${spellForStaticIndex("Zażółć")}</mark> gęślą`)).toBe("<mark>Zażółć</mark> gęślą");
    const plain = "Nothing to change here: cafe, résumé.";
    expect(spellForStaticIndex(plain)).toBe(plain);
    expect(spellFromStaticIndex(plain)).toBe(plain);
  });
});
