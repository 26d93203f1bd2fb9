import { describe, expect, it } from "vitest";
import { encodePostings, type IndexPart, type TermRow } from "../../../lib/static-search-index.ts";
import { chunksNeeded, excerptOf, queryWords, rank } from "./static-search.ts";

const row = (root: string, postings: Array<[number, number]>): TermRow => [root, ...encodePostings(postings)];

describe("the static index's search", () => {
  it("asks for every word by its root, accents folded, the last one also as the start of a longer root", () => {
    expect(queryWords("Habits of Jeża")).toEqual([
      { root: "habit", prefix: false },
      { root: "of", prefix: false },
      { root: "jeza", prefix: true },
    ]);
    // A last word of one letter is a word, not every word it starts.
    expect(queryWords("vitamin a").at(-1)).toEqual({ root: "a", prefix: false });
    expect(queryWords("“quoted” -- ")).toEqual([{ root: "quot", prefix: true }]);
  });

  it("needs the chunk each word's root falls in, and for the last word every chunk its prefix spans", () => {
    const part: IndexPart = { id: "x", records: 9, chapters: 1, chunks: ["", "att", "attention", "attic", "b"] };
    expect(chunksNeeded(part, queryWords("attention"))).toEqual([2]);
    expect(chunksNeeded(part, queryWords("att"))).toEqual([1, 2, 3]);
    expect(chunksNeeded(part, queryWords("apple attention bee"))).toEqual([0, 2, 4]);
    expect(chunksNeeded(part, queryWords("zebra"))).toEqual([4]);
  });

  it("answers with the records holding every word, best first: weight times rarity, a prefix counting less, equals in reading order", () => {
    const rows = [
      row("attention", [[0, 4], [1, 16], [2, 4], [3, 4]]),
      row("attentive", [[4, 16]]),
      row("ledger", [[1, 8], [2, 8], [5, 8]]),
      row("the", [[0, 8], [1, 8], [2, 8], [3, 8], [4, 8], [5, 8]]),
    ];
    const whole = { records: 6, rows };
    expect(rank(queryWords("attention"), [whole], 10).map((r) => r.record)).toEqual([1, 0, 2, 3]);
    // Typed so far, "attent" finds both roots, a whole root before a longer one of the same weight.
    expect(rank(queryWords("attent"), [whole], 10).map((r) => r.record)).toEqual([4, 1, 0, 2, 3]);
    expect(rank(queryWords("the attention ledger"), [whole], 10).map((r) => r.record)).toEqual([1, 2]);
    expect(rank(queryWords("ledger"), [whole], 2)).toHaveLength(2);
    expect(rank(queryWords("nothing"), [whole], 10)).toEqual([]);
    // A delta's records come with their part; a root's rarity counts over both.
    const delta = { records: 1, rows: [row("ledger", [[0, 16]])] };
    expect(rank(queryWords("ledger"), [whole, delta], 10)[0]).toMatchObject({ part: 1, record: 0 });
  });

  it("shows the stretch of a record's text that holds the most of the words, as written, each match marked", () => {
    const content = `The Attention Ledger ${"filler ".repeat(30)}where attention goes, the ledger keeps count of it. ${"more ".repeat(30)}`;
    // (After its title, which a result shows apart.)
    expect(excerptOf(content, queryWords("attention ledger"))[0]).toEqual({ text: "The " });
    const parts = excerptOf(content, queryWords("attention ledger"), "The Attention Ledger".length);
    const text = parts.map((part) => part.text).join("");
    expect(text.split(/\s+/)).toHaveLength(24);
    expect(text).toMatch(/^filler filler filler where attention goes, the ledger keeps count of it\. more/);
    expect(parts.filter((part) => part.mark).map((part) => part.text)).toEqual(["attention", "ledger"]);
    // Accents forgiven, the word shown as written.
    expect(excerptOf("Zażółć gęślą jaźń: widać ślady jeża w ogrodzie.", queryWords("zazolc jeza")).filter((part) => part.mark)).toEqual([
      { text: "Zażółć", mark: true },
      { text: "jeża", mark: true },
    ]);
  });
});
