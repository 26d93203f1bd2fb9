import { describe, expect, it } from "vitest";
import { NO_LONGER_OPEN, notebookJson, notebookMarkdown, type OpenedNote } from "./export.ts";

const at = new Date("2026-11-27T10:00:00Z");
const placed = (chapter: [number, string], section: [number, string], text: string, level = "Operator"): OpenedNote => ({
  subsectionId: chapter[0] * 100 + section[0],
  updatedAt: "2026-11-20T08:30:00.000Z",
  note: { text, title: section[1], chapterSlug: "c", chapterTitle: chapter[1], sectionSlug: "s", level },
  place: { chapterSlug: `chapter-${chapter[0]}`, chapterTitle: chapter[1], level, chapterNumber: chapter[0], sectionSlug: `part-${section[0]}`, sectionTitle: section[1], sectionNumber: section[0] },
});

describe("a notebook taken away", () => {
  it("writes Markdown with chapters as headings and each note under its subsection's number and title, in the order given", () => {
    const notes = [
      placed([1, "The Inner Narrator"], [1, "The Voice"], "It spoke first."),
      placed([1, "The Inner Narrator"], [3, "The Hour"], "  An ordinary hour, word for word.\n\nSecond paragraph.  "),
      placed([2, "Attention"], [1, "The Ledger"], "Where my attention went.", "Architect"),
      { ...placed([9, "Gone"], [4, "A withdrawn passage"], "Kept all the same."), place: null },
    ];
    expect(notebookMarkdown(notes, at)).toBe(
      [
        "# My notebook",
        "",
        "Downloaded on 2026-11-27: 4 notes.",
        "",
        "## Operator · 00 The Inner Narrator",
        "",
        "### 01 The Voice",
        "",
        "It spoke first.",
        "",
        "_Last edited 2026-11-20_",
        "",
        "### 03 The Hour",
        "",
        "An ordinary hour, word for word.\n\nSecond paragraph.",
        "",
        "_Last edited 2026-11-20_",
        "",
        "## Architect · 01 Attention",
        "",
        "### 01 The Ledger",
        "",
        "Where my attention went.",
        "",
        "_Last edited 2026-11-20_",
        "",
        `## Notes ${NO_LONGER_OPEN}`,
        "",
        "### A withdrawn passage (Gone)",
        "",
        "Kept all the same.",
        "",
        "_Last edited 2026-11-20_",
        "",
      ].join("\n"),
    );
  });

  it("writes JSON with each note's words, passage and time, a passage no longer open marked so", () => {
    const json = JSON.parse(notebookJson([placed([1, "Ch"], [2, "Part"], "Words."), { ...placed([1, "Ch"], [3, "Old"], "Old words."), place: null }], at)) as {
      downloadedAt: string;
      notes: Array<{ text: string; passage: Record<string, unknown>; updatedAt: string }>;
    };
    expect(json.downloadedAt).toBe(at.toISOString());
    expect(json.notes).toEqual([
      { text: "Words.", passage: { level: "Operator", chapter: "Ch", chapterNumber: 1, section: "Part", sectionNumber: 2, address: "/chapter-1#part-2" }, updatedAt: "2026-11-20T08:30:00.000Z" },
      { text: "Old words.", passage: { level: "Operator", chapter: "Ch", section: "Old", open: false }, updatedAt: "2026-11-20T08:30:00.000Z" },
    ]);
  });

  it("says so when empty", () => {
    expect(notebookMarkdown([], at)).toBe("# My notebook\n\nDownloaded on 2026-11-27: 0 notes.\n");
  });

  it("adds the direct line's messages as a Messages section, oldest first, saying which could not be opened", () => {
    const text = notebookMarkdown([], at, [
      { sender: "member", createdAt: "2026-11-20T08:30:00.000Z", text: "What do I do at breakfast?" },
      { sender: "operator", createdAt: "2026-11-20T09:00:00.000Z", text: "Write its first sentence down.", task: true },
      { sender: "operator", createdAt: "2026-11-21T09:00:00.000Z", text: null },
    ]);
    expect(text).toContain("## Messages\n\n### You, 2026-11-20 08:30 UTC\n\nWhat do I do at breakfast?\n\n### The operator (a task), 2026-11-20 09:00 UTC\n\nWrite its first sentence down.");
    expect(text).toContain("_This message could not be opened._");
  });
});
