/**
 * axe-core as every end-to-end accessibility check runs it: the WCAG 2.0, 2.1 and 2.2 A and AA
 * rules and axe's best practices, plus label-content-name-mismatch (WCAG 2.5.3, an experimental
 * rule axe leaves off unless asked). Answers the serious and critical violations, one line each.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

export const AXE_TAGS = [
  "wcag2a",
  "wcag2aa",
  "wcag21a",
  "wcag21aa",
  "wcag22a",
  "wcag22aa",
  "best-practice",
];

export async function seriousViolations(page: Page): Promise<string[]> {
  // What the reader sees at rest: a colour or opacity transition under way (a button just enabled,
  // a panel fading in) would be measured half-way and read as poor contrast. Transitions only:
  // scroll-driven animations (the chapter bar's title) run for as long as the page is open.
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => !(a instanceof CSSTransition) || a.playState !== "running"),
  );
  const results = await new AxeBuilder({ page })
    .withTags(AXE_TAGS)
    .options({ rules: { "label-content-name-mismatch": { enabled: true } } })
    .analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
    );
}
