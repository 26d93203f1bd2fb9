/**
 * Type that reads like a book (issue 22: 11): a chapter's title about 40 px (36 on a phone), its
 * subsections' titles 28 px semibold, and the text 18 px in lines of 60-75 characters on a wide
 * screen (never more than 75 on any), measured in the rendered page.
 */
import { expect, test } from "./page-test.ts";
import { operatorChapters } from "./reader-helpers.ts";

for (const size of [
  { name: "phone", width: 390, height: 844, title: 36 },
  { name: "desktop", width: 1280, height: 800, title: 40 },
] as const) {
  test(`a chapter's type scale and measure (${size.name})`, async ({ page }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    const [first] = await operatorChapters(page.request);
    await page.goto(`/${first!.slug}`);
    await page.evaluate(() => document.fonts.ready);
    const figures = await page.evaluate(() => {
      const px = (element: Element) => parseFloat(getComputedStyle(element).fontSize);
      const h1 = document.querySelector("main h1")!;
      const h2 = document.querySelector("section[data-subsection] h2")!;
      // Characters per line of each paragraph of three lines or more: its length over its lines.
      const perLine: number[] = [];
      for (const p of document.querySelectorAll(".chapter-content > p")) {
        const range = document.createRange();
        range.selectNodeContents(p);
        const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
        if (tops.size >= 3) perLine.push(p.textContent!.length / tops.size);
      }
      return {
        title: px(h1),
        subsection: px(h2),
        subsectionWeight: getComputedStyle(h2).fontWeight,
        text: px(document.querySelector(".chapter-content > p")!),
        longest: Math.max(...perLine),
        average: perLine.reduce((a, b) => a + b, 0) / perLine.length,
        paragraphs: perLine.length,
      };
    });
    expect(figures.title).toBe(size.title);
    expect(figures.subsection).toBe(28);
    expect(figures.subsectionWeight).toBe("600");
    expect(figures.text).toBe(18);
    expect(figures.paragraphs).toBeGreaterThan(0);
    // (A paragraph's last line is short, so its average under-reads the full lines a little.)
    expect(figures.longest).toBeLessThanOrEqual(75);
    if (size.name === "desktop") expect(figures.average).toBeGreaterThanOrEqual(60);
  });
}
