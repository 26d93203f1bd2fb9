import { describe, expect, it } from "vitest";
import { slugify } from "./slug.ts";

describe("slugify (SPEC.md section 5, issue 34: 11)", () => {
  it("keeps SPEC's rule: lowercased, runs of other characters one hyphen, none at either end", () => {
    expect(slugify("  The Inner  Narrator! ")).toBe("the-inner-narrator");
    expect(slugify("Chapter 3: Signal & Noise")).toBe("chapter-3-signal-noise");
    expect(slugify("---")).toBe("");
  });

  it("writes Polish letters without their accents", () => {
    expect(slugify("Kraków")).toBe("krakow");
    expect(slugify("Zażółć gęślą jaźń")).toBe("zazolc-gesla-jazn");
    expect(slugify("Łódź i Śląsk")).toBe("lodz-i-slask");
  });

  it("writes German and French letters without their accents", () => {
    expect(slugify("Ünïcode")).toBe("unicode");
    expect(slugify("Die Straße der Übung")).toBe("die-strasse-der-ubung");
    expect(slugify("Cœur à l'ouvrage, déjà vu")).toBe("coeur-a-l-ouvrage-deja-vu");
    expect(slugify("Ærøskøbing")).toBe("aeroskobing");
  });

  it("drops what has no Latin letters rather than guessing", () => {
    expect(slugify("Страх 2")).toBe("2");
    expect(slugify("注意")).toBe("");
  });
});
