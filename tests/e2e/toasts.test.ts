/**
 * The notification region (SPEC.md sections 4 and 9; issue 12): F8 focuses it; a swipe right of
 * 50 px dismisses a toast, by mouse and by touch; a toast never covers the control it is about,
 * at a desktop and a phone size; an error toast goes when the action it was about succeeds.
 */
import type { CDPSession, Locator, Page } from "@playwright/test";
import { expect, test } from "./page-test.ts";
import { codeFor } from "./fixtures.ts";
import { hydrated } from "./reader-helpers.ts";

const region = (page: Page) => page.getByRole("region", { name: "Notifications (F8)" });
const shown = (page: Page) => region(page).locator("[role=status], [role=alert]");
const nextButton = (page: Page) => page.getByRole("button", { name: /^(Next|Complete Scan)$/ });
const option = (page: Page, answer: string) => page.getByRole("radio", { name: new RegExp(`^${answer}\\.`) });

/** Opens the scan and raises 'Please select an answer' by pressing Next without an answer. */
async function raiseSelectAnswer(page: Page): Promise<void> {
  await page.goto("/assessment");
  await expect(page.getByTestId("progress-text")).toHaveText("1 of 15");
  await hydrated(page);
  await nextButton(page).click({ force: true });
  await expect(shown(page)).toContainText("Please select an answer");
}

async function overlaps(a: Locator, b: Locator): Promise<boolean> {
  const [x, y] = [(await a.boundingBox())!, (await b.boundingBox())!];
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
}

/** Drags the shown toast `dx` px to the right with the mouse. */
async function mouseSwipe(page: Page, dx: number): Promise<void> {
  const box = (await shown(page).boundingBox())!;
  const [x, y] = [box.x + 20, box.y + box.height / 2];
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let i = 1; i <= 5; i++) await page.mouse.move(x + (dx * i) / 5, y);
  await page.mouse.up();
}

/** Swipes the shown toast `dx` px to the right with a finger (touch events, as a phone sends them). */
async function touchSwipe(page: Page, cdp: CDPSession, dx: number): Promise<void> {
  const box = (await shown(page).boundingBox())!;
  const [x, y] = [box.x + 20, box.y + box.height / 2];
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x, y }] });
  for (let i = 1; i <= 6; i++) {
    await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: [{ x: x + (dx * i) / 6, y: y + i }] });
  }
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
}

test("F8 moves focus to the notification region", async ({ page }) => {
  await raiseSelectAnswer(page);
  await page.keyboard.press("F8");
  await expect(region(page)).toBeFocused();
});

test("a mouse swipe of 50 px to the right dismisses a toast; a shorter one does not", async ({ page }) => {
  await raiseSelectAnswer(page);
  await mouseSwipe(page, 30);
  await expect(shown(page)).toBeVisible();
  await mouseSwipe(page, 60);
  await expect(shown(page)).toHaveCount(0, { timeout: 1000 });
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test("a touch swipe of 50 px to the right dismisses a toast; a shorter one does not", async ({ page }) => {
    await raiseSelectAnswer(page);
    const cdp = await page.context().newCDPSession(page);
    await touchSwipe(page, cdp, 25);
    await expect(shown(page)).toBeVisible();
    await touchSwipe(page, cdp, 70);
    // At once, not when the toast's 5 s are up.
    await expect(shown(page)).toHaveCount(0, { timeout: 1000 });
  });
});

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport });

    test("'Please select an answer' does not cover Next, wherever the reader has scrolled it", async ({ page }) => {
      await raiseSelectAnswer(page);
      await expect(nextButton(page)).toBeInViewport();
      expect(await overlaps(shown(page), nextButton(page))).toBe(false);
      // Next scrolled up to the top of the screen: the next toast shows at the other edge.
      await page.evaluate(() => window.scrollBy(0, 200));
      await page.evaluate(() => {
        const next = [...document.querySelectorAll("button")].find((b) => b.textContent?.trim() === "Next")!;
        window.scrollBy(0, next.getBoundingClientRect().top - 80);
      });
      await nextButton(page).click({ force: true, noWaitAfter: true });
      await expect(shown(page)).toContainText("Please select an answer");
      expect(await overlaps(shown(page), nextButton(page))).toBe(false);
    });

    test("'Access Denied' does not cover the sign-in form", async ({ page }) => {
      await page.goto("/resume");
      await hydrated(page);
      await page.getByLabel("Access Code").fill(codeFor("Architect").login);
      await page.getByLabel("Password").fill("wrong password");
      await page.getByRole("button", { name: "Enter" }).click();
      await expect(shown(page)).toContainText("Access Denied");
      for (const control of [page.getByLabel("Access Code"), page.getByLabel("Password"), page.getByRole("button", { name: "Enter" })]) {
        expect(await overlaps(shown(page), control)).toBe(false);
      }
    });
  });
}

test("'Invalid Email' covers no button of the form, and goes when the result shows", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/assessment");
  await hydrated(page);
  for (let n = 1; n <= 15; n++) {
    await expect(page.getByTestId("progress-text")).toHaveText(`${n} of 15`);
    await option(page, "B").check();
    await nextButton(page).click();
  }
  await page.getByLabel("Name").fill("Ada");
  await page.getByLabel("Email").fill("not-an-email");
  const submit = page.getByRole("button", { name: "Get My Results" });
  await submit.click();
  await expect(shown(page)).toContainText("Invalid Email");
  expect(await overlaps(shown(page), submit)).toBe(false);
  expect(await overlaps(shown(page), page.getByLabel("Email"))).toBe(false);
  await page.getByLabel("Email").fill("ada@example.com");
  await submit.click();
  await expect(page.getByRole("heading", { name: "Scan Complete" })).toBeVisible();
  await expect(shown(page)).toHaveCount(0, { timeout: 500 });
});
