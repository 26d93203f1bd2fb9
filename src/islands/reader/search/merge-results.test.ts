import { describe, expect, it } from "vitest";
import type { SearchResult } from "../../../lib/search-query.ts";
import { chapterSlugOf, keepLiveOperator, MAX_RESULTS, mergeResults } from "./merge-results.ts";

const result = (url: string, level: SearchResult["level"] = "Operator"): SearchResult => ({ url, level, chapter: "C", title: "T", snippet: [] });

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

  it("merges both sources in turns, without the same address twice, at most MAX_RESULTS", () => {
    const merged = mergeResults([result("/a"), result("/b"), result("/c")], [result("/x", "Mastermind"), result("/a", "Architect")]);
    expect(merged.map((r) => r.url)).toEqual(["/a", "/x", "/b", "/c"]);
    const many = Array.from({ length: 30 }, (_, i) => result(`/o${i}`));
    expect(mergeResults(many, many.map((r) => ({ ...r, url: `${r.url}-l` })))).toHaveLength(MAX_RESULTS);
  });
});
