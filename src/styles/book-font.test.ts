import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BOOK_FONT_DIR, buildBookFont, codePointsOf, coreCodePoints, unicodeRangeOf } from "./book-font.ts";

describe("the book's core font files (issue 20: 2)", () => {
  it("reads and writes unicode ranges", () => {
    expect(codePointsOf("U+0041-0043, U+00F3")).toEqual([0x41, 0x42, 0x43, 0xf3]);
    expect(unicodeRangeOf([0xf3, 0x41, 0x42, 0x43, 0x43, 0x2013, 0x2014])).toBe("U+0041-0043, U+00F3, U+2013-2014");
  });

  it("holds printable ASCII and the characters of the site's texts that the latin files have, and nothing else", () => {
    const points = coreCodePoints("Kraków — “quoted” ✕ ł");
    for (const c of "AZaz09~ó—“”") expect(points, c).toContain(c.codePointAt(0));
    // Not in the package's latin files (✕ is in no face of the book; ł is latin-ext's).
    for (const c of "✕ł") expect(points, c).not.toContain(c.codePointAt(0));
    // The site's own texts: the privacy policy's "Kraków" is one of them.
    expect(coreCodePoints()).toContain("ó".codePointAt(0));
  });

  it("cuts an upright and an italic file of about 20 KB, with the @font-face rules naming them for those characters", async () => {
    await buildBookFont();
    for (const style of ["normal", "italic"]) {
      const size = fs.statSync(path.join(BOOK_FONT_DIR, `book-core-${style}.woff2`)).size;
      expect(size, style).toBeGreaterThan(10_000);
      expect(size, style).toBeLessThan(25_000);
    }
    const css = fs.readFileSync(path.join(BOOK_FONT_DIR, "book-core.css"), "utf8");
    expect(css.match(/unicode-range: ([^;]+);/g)).toEqual(Array(2).fill(`unicode-range: ${unicodeRangeOf(coreCodePoints())};`));
    // One family (the header's too: issue 34: 7), used only if it is in when the page paints (issue 44: 1).
    expect(css.match(/font-family: "[^"]+"/g)).toEqual(Array(2).fill('font-family: "Source Serif 4 Variable"'));
    expect(css.match(/font-display: \w+/g)).toEqual(["font-display: optional", "font-display: optional"]);
    expect(css).toContain('src: url("./book-core-normal.woff2") format("woff2")');
    expect(css).toContain("font-weight: 400 700");
  });
});
