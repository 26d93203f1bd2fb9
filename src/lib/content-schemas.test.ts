import { describe, expect, it } from "vitest";
import { chapterInput, chapterReorderInput, photoSchema, subsectionInput, toWholeNumber } from "./content-schemas.ts";

const chapter = { slug: "signal-and-noise", title: "Signal", content: "Body", readingTime: 5, order: 0 };
const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;

describe("toWholeNumber", () => {
  it("turns what a number field holds into a whole number, a non-numeric value into 0", () => {
    expect(toWholeNumber("7")).toBe(7);
    expect(toWholeNumber(" 12 ")).toBe(12);
    expect(toWholeNumber("3.7")).toBe(3);
    expect(toWholeNumber("abc")).toBe(0);
    expect(toWholeNumber("")).toBe(0);
    expect(toWholeNumber(Number.NaN)).toBe(0);
    expect(toWholeNumber(undefined)).toBe(0);
    expect(toWholeNumber(4)).toBe(4);
  });
});

describe("chapterInput", () => {
  it("accepts a chapter and defaults the level to Operator", () => {
    expect(chapterInput.parse(chapter)).toEqual({ ...chapter, level: "Operator" });
  });

  it("says 'Slug is required' for a missing or empty slug", () => {
    expect(firstMessage(chapterInput.safeParse({ ...chapter, slug: "" }))).toBe("Slug is required");
    expect(firstMessage(chapterInput.safeParse({ ...chapter, slug: undefined }))).toBe("Slug is required");
  });

  it("refuses a malformed slug, a blank title, a negative or fractional number and an unknown level", () => {
    expect(chapterInput.safeParse({ ...chapter, slug: "Bad Slug" }).success).toBe(false);
    expect(chapterInput.safeParse({ ...chapter, slug: "a".repeat(121) }).success).toBe(false);
    expect(chapterInput.safeParse({ ...chapter, title: "   " }).success).toBe(false);
    expect(chapterInput.safeParse({ ...chapter, title: "x".repeat(201) }).success).toBe(false);
    expect(chapterInput.safeParse({ ...chapter, readingTime: -1 }).success).toBe(false);
    expect(chapterInput.safeParse({ ...chapter, readingTime: 601 }).success).toBe(false);
    expect(chapterInput.safeParse({ ...chapter, order: 1.5 }).success).toBe(false);
    expect(chapterInput.safeParse({ ...chapter, order: "1" }).success).toBe(false);
    expect(chapterInput.safeParse({ ...chapter, level: "Admin" }).success).toBe(false);
  });
});

describe("subsectionInput", () => {
  const subsection = { chapterId: 1, title: "One", content: "Text" };
  it("accepts a subsection without photo, order or slug", () => {
    expect(subsectionInput.parse(subsection)).toEqual(subsection);
  });

  it("accepts an uploaded photo path, an https URL, an empty photo or null", () => {
    for (const photo of ["/uploads/abc.webp", "https://example.com/a.jpg", "", null]) {
      expect(photoSchema.safeParse(photo).success, String(photo)).toBe(true);
    }
  });

  it("refuses script, http and protocol-relative photo URLs", () => {
    for (const photo of ["javascript:alert(1)", "http://example.com/a.jpg", "//evil.example/a.png", "data:image/png;base64,AA"]) {
      expect(photoSchema.safeParse(photo).success, photo).toBe(false);
    }
  });

  it("refuses a missing chapter, a bad slug and a negative order", () => {
    expect(subsectionInput.safeParse({ ...subsection, chapterId: 0 }).success).toBe(false);
    expect(subsectionInput.safeParse({ ...subsection, slug: "Not OK" }).success).toBe(false);
    expect(subsectionInput.safeParse({ ...subsection, order: -1 }).success).toBe(false);
    expect(subsectionInput.safeParse({ ...subsection, slug: "" }).success).toBe(true);
  });
});

describe("chapterReorderInput", () => {
  it("needs a non-empty list of ids", () => {
    expect(chapterReorderInput.safeParse({ chapterIds: [] }).success).toBe(false);
    expect(chapterReorderInput.safeParse({ chapterIds: ["1"] }).success).toBe(false);
    expect(chapterReorderInput.safeParse({ chapterIds: [3, 1, 2] }).success).toBe(true);
  });
});
