/**
 * The scan (issue 34: 4, 5): before question 1 a line says how long it takes and that a name and
 * email come at the end; on a phone Next and Previous stay in view on every question; the result
 * shows the score out of the highest total and where it falls among the levels, on 'Scan
 * Complete' and on the private link, at 390 and 1280 px in both themes, with axe.
 */
import { seriousViolations } from "./axe.ts";
import { expect, test } from "./page-test.ts";

for (const size of [
  { width: 390, height: 844, theme: "light" },
  { width: 1280, height: 800, theme: "dark" },
  { width: 390, height: 844, theme: "dark" },
  { width: 1280, height: 800, theme: "light" },
] as const) {
  test(`at ${size.width} px, ${size.theme}: the scan says what it asks, keeps Next in reach, and places the score on the levels' scale`, async ({ page }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.addInitScript((theme) => localStorage.setItem("book-theme", theme), size.theme);
    await page.goto("/assessment");
    const intro = page.getByTestId("scan-intro");
    await expect(intro).toHaveText("15 questions, about 4 minutes. Your name and email are asked at the end, before your result.");
    const next = page.getByRole("button", { name: /^(Next|Complete Scan)$/ });
    const previous = page.getByRole("button", { name: "Previous" });
    for (let n = 1; n <= 15; n++) {
      await expect(page.getByTestId("progress-text")).toHaveText(`${n} of 15`);
      if (n === 2) await expect(intro).toHaveCount(0);
      // Both buttons in full view, the page where each question opens: no scroll to reach them.
      await expect(next).toBeInViewport({ ratio: 1 });
      await expect(previous).toBeInViewport({ ratio: 1 });
      // Nor does the bar hide an option for good: scrolled down, the last one stands clear of it.
      const options = page.getByRole("radio");
      const last = page.locator("fieldset label").last();
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      const [lastBox, barBox] = [(await last.boundingBox())!, (await next.boundingBox())!];
      if (size.width === 390) expect(lastBox.y + lastBox.height, `question ${n}`).toBeLessThanOrEqual(barBox.y);
      // Answers A to D give 1 to 4 points: alternate B and C for a middle score.
      await options.nth(n % 2 === 0 ? 1 : 2).check();
      await next.click();
      await page.evaluate(() => window.scrollTo(0, 0));
    }
    await page.getByLabel("Name").fill("Scale Reader");
    await page.getByLabel("Email").fill("scale.reader@example.com");
    await page.getByRole("button", { name: "Get My Results" }).click();
    await expect(page.getByRole("heading", { name: "Scan Complete" })).toBeVisible();

    const score = Number(await page.getByTestId("total-score").textContent());
    const level = (await page.getByTestId("level").textContent())!;
    await expect(page.getByTestId("score-out-of")).toHaveText("out of 60");
    const bands = page.getByRole("list", { name: "The levels, by total score" }).getByRole("listitem");
    await expect(bands).toHaveCount(4);
    // The reader's band is the marked one, and its range holds the score.
    const current = page.locator('[aria-current="true"]');
    await expect(current).toHaveCount(1);
    await expect(current).toContainText(level);
    const [min, max] = (await current.locator(".tabular-nums").textContent())!.split("–").map(Number);
    expect(score).toBeGreaterThanOrEqual(min!);
    expect(score).toBeLessThanOrEqual(max!);
    expect(await seriousViolations(page)).toEqual([]);

    // The private link shows the same scale.
    const link = await page.getByTestId("result-link").inputValue();
    await page.goto(link);
    await expect(page.getByRole("heading", { name: "Your Result" })).toBeVisible();
    await expect(page.getByTestId("score-out-of")).toHaveText("out of 60");
    await expect(page.locator('[aria-current="true"]')).toContainText(level);
    expect(await seriousViolations(page)).toEqual([]);
  });
}
