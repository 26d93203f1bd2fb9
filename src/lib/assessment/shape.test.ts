import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { SCAN_MINUTES } from "./shape.ts";

const BOOK = new URL("../../../content/book/", import.meta.url);
const WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];

describe("SCAN_MINUTES", () => {
  it("is the one figure for the scan's length: the book says the same where it points to the scan (issue 44: 7)", () => {
    const said: string[] = [];
    for (const file of fs.readdirSync(BOOK, { recursive: true, encoding: "utf8" })) {
      if (!file.endsWith(".md")) continue;
      for (const paragraph of fs.readFileSync(new URL(file, BOOK), "utf8").split(/\n\s*\n/)) {
        if (!/\bscan\b/i.test(paragraph)) continue;
        for (const [, figure] of paragraph.matchAll(/\b(\w+)(?:-minute| minutes?)\b/gi)) said.push(`${file}: ${figure}`);
      }
    }
    expect(said.length).toBeGreaterThan(0);
    for (const line of said) {
      const figure = line.slice(line.lastIndexOf(" ") + 1).toLowerCase();
      expect(WORDS.includes(figure) ? WORDS.indexOf(figure) : Number(figure), line).toBe(SCAN_MINUTES);
    }
  });
});
