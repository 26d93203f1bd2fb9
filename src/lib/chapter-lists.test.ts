import { describe, expect, it } from "vitest";
import { drawerItems, NEARBY, nearby, railItems } from "./chapter-lists.ts";

const book = (n: number) => Array.from({ length: n }, (_, i) => ({ slug: `c-${i}`, title: `Chapter ${i}` }));

describe("nearby", () => {
  it("carries the whole of a short list", () => {
    expect(nearby(book(9), "c-4")).toEqual({ from: 0, chapters: book(9) });
  });

  it("carries 2 x NEARBY + 1 chapters of a long one, the current in the middle where the ends allow", () => {
    const list = book(300);
    expect(nearby(list, "c-150")).toEqual({ from: 150 - NEARBY, chapters: list.slice(150 - NEARBY, 151 + NEARBY) });
    expect(nearby(list, "c-0")).toEqual({ from: 0, chapters: list.slice(0, 2 * NEARBY + 1) });
    expect(nearby(list, "c-299")).toEqual({ from: 299 - 2 * NEARBY, chapters: list.slice(299 - 2 * NEARBY) });
    // (A chapter not in the list: the list's start.)
    expect(nearby(list, "gone").from).toBe(0);
  });

  it("is the same size however long the book grows", () => {
    for (const n of [17, 100, 300, 1000]) expect(nearby(book(n), `c-${Math.floor(n / 2)}`).chapters).toHaveLength(2 * NEARBY + 1);
  });
});

describe("railItems and drawerItems", () => {
  it("number each chapter by its place in the level and mark the current one", () => {
    const rail = railItems(book(3).slice(1), "c-2", 1);
    expect(rail).toBe(
      '<li><a href="/c-1" aria-label="01 Chapter 1" data-title="Chapter 1" class="rail-link">01</a></li>' +
        '<li><a href="/c-2" aria-label="02 Chapter 2" data-title="Chapter 2" class="rail-link" aria-current="page">02</a></li>',
    );
    expect(drawerItems(book(1), null)).toBe('<li><a href="/c-0" class="drawer-link"><span>00</span><span>Chapter 0</span></a></li>');
    expect(railItems(book(101).slice(100), null, 100)).toContain(">100</a>");
  });

  it("escape what a title says, in text and in attributes", () => {
    const hostile = [{ slug: "x", title: `"><script>alert('1')</script> & co` }];
    for (const html of [railItems(hostile, null), drawerItems(hostile, null)]) {
      expect(html).not.toContain("<script");
      expect(html).not.toContain(`"><script`);
      expect(html).not.toContain(`'1'`);
      expect(html).toContain("&quot;&gt;&lt;script&gt;alert(&#39;1&#39;)&lt;/script&gt; &amp; co");
    }
  });

  it("say so when a level has no chapters", () => {
    expect(drawerItems([], null)).toBe('<li class="drawer-note">No chapters available</li>');
    expect(railItems([], null)).toBe("");
  });
});
