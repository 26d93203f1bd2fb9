import { describe, expect, it } from "vitest";
import type { SearchResult } from "../../../lib/search-query.ts";
import { firstFor, RELEVANCE_SET, relevanceScore } from "../../../../tests/support/search-relevance.ts";
import { chapterSlugOf, keepLiveOperator, MAX_RESULTS, mergeResults, relevance } from "./merge-results.ts";

const result = (url: string, level: SearchResult["level"] = "Operator", title = "T", text = "words"): SearchResult => ({
  url,
  level,
  chapter: "C",
  title,
  snippet: [{ text }],
});

describe("search results", () => {
  it("drops static-index results whose chapter the live list no longer shows as Operator, or shows with other text", () => {
    const hit = (url: string, stamp: string | undefined) => ({ result: result(url), stamp });
    const live = new Map<string, string | undefined>([["open", "s1"], ["edited", "s3"]]);
    const kept = keepLiveOperator(
      [hit("/open#part", "s1"), hit("/moved-to-mastermind#part", "s1"), hit("/open", "s1"), hit("/edited#part", "s2"), hit("/open#old", undefined)],
      live,
    );
    expect(kept.map((r) => r.url)).toEqual(["/open#part", "/open"]);
    expect(chapterSlugOf("/a-chapter#a-part")).toBe("a-chapter");
  });

  it("merges both sources without the same address twice, at most MAX_RESULTS; equals keep the sources' orders in turns", () => {
    const merged = mergeResults(["words"], [result("/a"), result("/b"), result("/c")], [result("/x", "Mastermind"), result("/a", "Architect")]);
    expect(merged.map((r) => r.url)).toEqual(["/a", "/x", "/b", "/c"]);
    const many = Array.from({ length: 30 }, (_, i) => result(`/o${i}`));
    expect(mergeResults(["words"], many, many.map((r) => ({ ...r, url: `${r.url}-l` })))).toHaveLength(MAX_RESULTS);
  });

  it("puts every word before some, an exact title first, titles before text, whole words before prefixes; drops what holds no word", () => {
    const words = ["cost", "switching"];
    const some = result("/some", "Operator", "The Cost", "nothing else");
    const inText = result("/text", "Operator", "Other", "the cost of switching tasks");
    const inTitle = result("/title", "Mastermind", "Switching costs a lot", "words");
    const exact = result("/exact", "Architect", "Cost Switching", "words");
    const prefix = result("/prefix", "Operator", "Costume switchings", "words");
    const none = result("/none", "Operator", "Assorted", "as in as");
    const merged = mergeResults(words, [some, inText, prefix, none], [inTitle, exact]);
    expect(merged.map((r) => r.url)).toEqual(["/exact", "/title", "/prefix", "/text", "/some"]);
    expect(relevance(["asdfghjkl"], none)).toBeNull();
    expect(mergeResults(["asdfghjkl"], [none], [])).toEqual([]);
  });

  it("forgives accents as both sources do, and puts what holds the words as typed first (issue 44: 5)", () => {
    const accented = result("/accented", "Operator", "Ślady", "widać ślady jeża w ogrodzie");
    const plain = result("/plain", "Architect", "Slady", "pisane bez ogonków: slady jeza");
    const chapter = result("/zazolc-gesla-jazn", "Mastermind", "Zażółć gęślą jaźń", "pangram");
    // Typed without accents, nothing is dropped as holding none of the words.
    expect(mergeResults(["jeza"], [accented], []).map((r) => r.url)).toEqual(["/accented"]);
    expect(mergeResults(["zazolc"], [], [chapter]).map((r) => r.url)).toEqual(["/zazolc-gesla-jazn"]);
    // The chapter's address is its title, folded: an exact title.
    expect(relevance(["zazolc", "gesla", "jazn"], chapter)).toEqual(relevance(["zażółć", "gęślą", "jaźń"], chapter)!.with(1, 0));
    // Whichever source each comes from and in whichever order, the words as typed come first.
    for (const [open, locked] of [[[plain], [accented]], [[accented], [plain]]] as const) {
      expect(mergeResults(["ślady", "jeża"], open, locked).map((r) => r.url)).toEqual(["/accented", "/plain"]);
      expect(mergeResults(["slady", "jeza"], open, locked).map((r) => r.url)).toEqual(["/plain", "/accented"]);
    }
  });

  it("finds the passage each query of the relevance set should find first, across both sources", () => {
    const score = relevanceScore();
    console.log(`Search relevance: ${score.first} of ${score.of} come first${score.missed.length ? ` (missed: ${score.missed.join(", ")})` : ""}`);
    expect(score.missed).toEqual([]);
    expect(firstFor("asdfghjkl")).toBeNull();
    expect(RELEVANCE_SET.length).toBeGreaterThanOrEqual(15);
  });
});
