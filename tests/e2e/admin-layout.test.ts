/**
 * The panel on a phone and a desktop (issue 34: 12), with axe: every tab's label on one line and
 * no tab running into another; the weekly bands as a list on a phone (nothing clipped in a scroll
 * box) and on one line a week on a desktop; the access codes' actions never broken over two lines;
 * and Deactivate looks destructive, unlike Settings, and asks first.
 */
import type { Locator } from "@playwright/test";
import { adminLogin } from "./admin-fixtures.ts";
import { seriousViolations } from "./axe.ts";
import { expect, test } from "./page-test.ts";

/** Whether `element`'s text sits on one line (its height is under two of its lines). */
const oneLine = (element: Locator) =>
  element.evaluate((el) => {
    const style = getComputedStyle(el);
    const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.5;
    const inner = el.getBoundingClientRect().height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom) - parseFloat(style.borderTopWidth) - parseFloat(style.borderBottomWidth);
    return inner < line * 1.5;
  });

for (const size of [
  { width: 390, height: 844, theme: "light" },
  { width: 1280, height: 800, theme: "dark" },
] as const) {
  test(`the panel at ${size.width} px, ${size.theme}: tabs, weekly bands and code actions on one line each; Deactivate looks destructive`, async ({ page }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.addInitScript((theme) => localStorage.setItem("book-theme", theme), size.theme);
    await adminLogin(page);
    const phone = size.width < 640;

    const tabs = page.getByRole("tablist", { name: "Admin sections" }).getByRole("tab");
    const boxes = [];
    for (const tab of await tabs.all()) {
      expect(await oneLine(tab), `${await tab.textContent()}`).toBe(true);
      boxes.push((await tab.boundingBox())!);
    }
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i]!, boxes[j]!];
        const overlap = a.x < b.x + b.width - 1 && b.x < a.x + a.width - 1 && a.y < b.y + b.height - 1 && b.y < a.y + a.height - 1;
        expect(overlap, `tabs ${i} and ${j}`).toBe(false);
      }
    }

    await page.getByRole("tab", { name: /^Assessment Submissions/ }).click();
    if (phone) {
      const list = page.getByTestId("band-weeks-list");
      await expect(list).toBeVisible();
      await expect(page.getByRole("table", { name: "Completions per band by week" })).toBeHidden();
      await expect(list.getByRole("listitem").first()).toContainText("Total");
    } else {
      const weeks = page.getByRole("table", { name: "Completions per band by week" }).getByRole("rowheader");
      await expect(weeks.first()).toBeVisible();
      for (const week of await weeks.all()) expect(await oneLine(week), `${await week.textContent()}`).toBe(true);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth)).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("tab", { name: "Access Codes" }).click();
    const scope = phone ? page.getByTestId("access-code-list") : page.getByRole("table");
    const deactivate = scope.getByRole("button", { name: /^Deactivate / }).first();
    const settings = scope.getByRole("button", { name: /^Settings of / }).first();
    await expect(deactivate).toBeVisible();
    for (const name of [/^Deactivate /, /^Reset password of /, /^Settings of /, /^End Sessions of /]) {
      const button = scope.getByRole("button", { name }).first();
      expect(await oneLine(button), `${name}`).toBe(true);
    }
    if (!phone) {
      // The table fits its column: no sideways scrolling in its box either.
      const region = page.getByRole("table").locator("xpath=..");
      expect(await region.evaluate((box) => box.scrollWidth - box.clientWidth)).toBeLessThanOrEqual(0);
    }
    const look = (button: Locator) => button.evaluate((el) => `${getComputedStyle(el).color} ${getComputedStyle(el).borderColor}`);
    expect(await look(deactivate)).not.toBe(await look(settings));
    await deactivate.click();
    const ask = page.getByRole("alertdialog", { name: "Deactivate this code?" });
    await expect(ask).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");
    await expect(ask).toBeHidden();
  });
}
