/**
 * The scan by keyboard (issue 44: 4): the whole scan with page.keyboard only, every key counted.
 * After Next (and after Previous) the focus is in the new question's fieldset, so a question costs
 * at most 3 presses: arrows (or Space) to choose, Enter to go on. The contact step marks its own
 * fields (aria-invalid, and the words beside each field tied to it by aria-describedby) as well as
 * showing SPEC.md's toasts. At 390 and 1280 px, in both themes, with axe.
 *
 * The keyboard user here takes the shortest way from where the focus is, never a pointer: from
 * outside the question it tabs in; in the group it steps with the arrows the shorter way round (a
 * radio group wraps), or presses Space on an unchecked answer it is already on; then Enter. If
 * Enter on an answer does not go on, it tabs to Next and presses Enter there (counted too).
 */
import type { Page } from "@playwright/test";
import { seriousViolations } from "./axe.ts";
import { expect, test } from "./page-test.ts";
import { QUESTION_NUMBERS, type Answer, type Answers } from "../../src/lib/assessment/model.ts";
import { scoreAnswers } from "../../src/lib/assessment/scoring.ts";
import { loadAssessment } from "../../src/server/assessment/content.ts";

const content = loadAssessment();
const ORDER: Answer[] = ["A", "B", "C", "D"];
/** Every answer and every distance from the first one: A, B, C, D, A, B, ... */
const answers: Answers = Object.fromEntries(QUESTION_NUMBERS.map((n) => [n, ORDER[(n - 1) % 4]!]));
/** The most presses a question may take, from the focus Next left to the next question's. */
const BUDGET = 3;

const progress = (page: Page) => page.getByTestId("progress-text");
const toast = (page: Page, title: string) =>
  page.getByRole("region", { name: "Notifications (F8)" }).locator("[role=status], [role=alert]").filter({ hasText: title });

/** The keyboard, counting every press. */
class Keys {
  count = 0;
  private readonly page: Page;
  constructor(page: Page) {
    this.page = page;
  }
  async press(key: string): Promise<void> {
    this.count++;
    await this.page.keyboard.press(key);
  }
  /** Types text, one press a character. */
  async type(text: string): Promise<void> {
    this.count += text.length;
    await this.page.keyboard.type(text);
  }
}

interface Focused {
  inQuestion: boolean;
  legend: string | null;
  radio: { value: string; checked: boolean } | null;
  label: string;
}

const focused = (page: Page): Promise<Focused> =>
  page.evaluate(() => {
    const active = document.activeElement;
    const fieldset = active?.closest("form fieldset");
    const radio = active instanceof HTMLInputElement && active.type === "radio" ? active : null;
    return {
      inQuestion: !!fieldset,
      legend: fieldset?.querySelector("legend")?.textContent ?? null,
      radio: radio && { value: radio.value, checked: radio.checked },
      label: active ? `${active.tagName.toLowerCase()} ${(active.textContent ?? "").trim().slice(0, 30)}` : "none",
    };
  });

/** Whether question `n` has given way to the next (or to the contact step) within `ms`. */
async function wentOn(page: Page, n: number, ms: number): Promise<boolean> {
  const after = n < 15 ? progress(page).filter({ hasText: `${n + 1} of 15` }) : page.getByRole("heading", { name: "One Final Step" });
  try {
    await after.waitFor({ timeout: ms });
    return true;
  } catch {
    return false;
  }
}

/** Answers question `n` with `target` from wherever the focus is; the presses it took. */
async function answerByKeyboard(page: Page, keys: Keys, n: number, target: Answer): Promise<number> {
  const start = keys.count;
  await expect(progress(page)).toHaveText(`${n} of 15`);
  // Into the question.
  for (let tabs = 0; !(await focused(page)).inQuestion; tabs++) {
    if (tabs > 80) throw new Error(`question ${n}: 80 Tabs and the focus never reached it`);
    await keys.press("Tab");
  }
  // Choose: the arrows check as they move, the shorter way round.
  for (let steps = 0; ; steps++) {
    const { radio } = await focused(page);
    if (!radio) throw new Error(`question ${n}: the focus is in the question but not on an answer`);
    if (radio.value === target && radio.checked) break;
    if (steps > 4) throw new Error(`question ${n}: could not choose ${target}`);
    if (radio.value === target) await keys.press("Space");
    else {
      const ahead = (ORDER.indexOf(target) - ORDER.indexOf(radio.value as Answer) + 4) % 4;
      await keys.press(ahead <= 2 ? "ArrowDown" : "ArrowUp");
    }
  }
  // Go on: Enter on the answer, or else Tab to Next and Enter there.
  await keys.press("Enter");
  if (!(await wentOn(page, n, 2_000))) {
    const next = page.getByRole("button", { name: /^(Next|Complete Scan)$/ });
    for (let tabs = 0; !(await next.evaluate((button) => button === document.activeElement)); tabs++) {
      if (tabs > 10) throw new Error(`question ${n}: Next is not reached by Tab`);
      await keys.press("Tab");
    }
    await keys.press("Enter");
    expect(await wentOn(page, n, 15_000), `question ${n}: Next did not go on`).toBe(true);
  }
  return keys.count - start;
}

/** The question whose fieldset holds the focus must be question `n`, with `answer` focused (or the first, unanswered). */
async function expectFocusIn(page: Page, n: number, answer?: Answer): Promise<void> {
  const question = content.questions[n - 1]!;
  await expect(page.locator("form fieldset:focus-within legend"), `focus after moving to question ${n}`).toHaveText(question.text);
  const radio = (await focused(page)).radio;
  expect(radio?.value, `the answer focused on question ${n}`).toBe(answer ?? "A");
  expect(radio?.checked).toBe(!!answer);
}

for (const size of (["light", "dark"] as const).flatMap((theme) => [
  { width: 390, height: 844, theme },
  { width: 1280, height: 800, theme },
])) {
  test(`at ${size.width} px, ${size.theme}: the whole scan by keyboard, at most ${BUDGET} presses a question`, async ({ page }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.addInitScript((theme) => localStorage.setItem("book-theme", theme), size.theme);
    const created = page.waitForResponse((r) => r.url().endsWith("/api/assessment/session") && r.request().method() === "POST");
    await page.goto("/assessment");
    expect((await created).status()).toBe(201);
    const keys = new Keys(page);

    // To the first question: the skip link, then into the main column.
    await keys.press("Tab");
    await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
    await keys.press("Enter");
    await keys.press("Tab");
    await expectFocusIn(page, 1);
    const toReach = keys.count;
    // (Tabbing in woke the island; a person takes longer than this to read the question.)
    await page.waitForFunction(() => document.querySelector("form fieldset")?.closest("astro-island")?.hasAttribute("ssr") === false);
    expect(await seriousViolations(page)).toEqual([]);

    const perQuestion: number[] = [];
    for (const n of QUESTION_NUMBERS) {
      perQuestion.push(await answerByKeyboard(page, keys, n, answers[n]!));
      if (n < 15) await expectFocusIn(page, n + 1);

      if (n === 5) {
        // Back: Tab to Previous (the next stop after the answers) and Enter; the focus is on the answer given there.
        const before = keys.count;
        await keys.press("Tab");
        await expect(page.getByRole("button", { name: "Previous" })).toBeFocused();
        await keys.press("Enter");
        await expect(progress(page)).toHaveText("5 of 15");
        await expectFocusIn(page, 5, answers[5]);
        // Enter on it goes on again, to the (unanswered) sixth.
        await keys.press("Enter");
        await expect(progress(page)).toHaveText("6 of 15");
        await expectFocusIn(page, 6);
        expect(keys.count - before).toBe(3);
      }
    }
    const questionKeys = perQuestion.reduce((a, b) => a + b, 0);

    // The contact step: the focus is on Name.
    await expect(page.getByRole("heading", { name: "One Final Step" })).toBeVisible();
    const name = page.getByLabel("Name");
    const email = page.getByLabel("Email");
    await expect(name).toBeFocused();
    const contactStart = keys.count;

    // Nothing given: both fields are marked and say why; the spec's toast; the focus on Name.
    await keys.press("Enter");
    await expect(toast(page, "Required Information")).toContainText("Please provide both name and email.");
    await expect(name).toHaveAttribute("aria-invalid", "true");
    await expect(name).toHaveAccessibleDescription("Please enter your name or a codename.");
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(email).toHaveAccessibleDescription("Please enter your email address.");
    await expect(page.getByText("Please enter your name or a codename.")).toBeVisible();
    await expect(name).toBeFocused();
    expect(await seriousViolations(page)).toEqual([]);

    // A name, and an email without its dot: only the email is marked now, and the focus is on it.
    await keys.type("Ada Lovelace");
    await expect(name).not.toHaveAttribute("aria-invalid");
    await expect(name).toHaveAccessibleDescription("");
    await keys.press("Tab");
    await expect(email).toBeFocused();
    await keys.type("ada@example");
    await keys.press("Enter");
    await expect(toast(page, "Invalid Email")).toContainText("Please enter a valid email address.");
    await expect(name).not.toHaveAttribute("aria-invalid");
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(email).toHaveAccessibleDescription("Please enter a valid email address, like name@example.com.");
    await expect(email).toBeFocused();

    // A name of spaces only counts as none; its mark says so again. (Tab into a field selects its text.)
    await keys.press("Shift+Tab");
    await keys.type("   ");
    await keys.press("Tab");
    await keys.press("End");
    await keys.type(".com");
    await keys.press("Enter");
    await expect(toast(page, "Required Information")).toBeVisible();
    await expect(name).toHaveAttribute("aria-invalid", "true");
    await expect(email).not.toHaveAttribute("aria-invalid");
    await expect(name).toBeFocused();
    await keys.press("ControlOrMeta+a");
    await keys.type("Ada Lovelace");
    await keys.press("Enter");

    // The result: its heading takes the focus.
    await expect(page.getByRole("heading", { name: "Scan Complete" })).toBeFocused();
    await expect(page.getByTestId("total-score")).toHaveText(String(scoreAnswers(content, answers).totalScore));
    expect(await seriousViolations(page)).toEqual([]);

    const figures = `reach ${toReach}; questions ${questionKeys} (${perQuestion.join(" ")}); contact ${keys.count - contactStart}; all ${keys.count}`;
    test.info().annotations.push({ type: "key presses", description: figures });
    console.log(`scan by keyboard, ${size.width} px ${size.theme}: ${figures}`);
    expect(toReach).toBeLessThanOrEqual(BUDGET);
    for (const [i, count] of perQuestion.entries()) expect(count, `presses for question ${i + 1}`).toBeLessThanOrEqual(BUDGET);
    expect(questionKeys / perQuestion.length).toBeLessThanOrEqual(BUDGET);
  });
}

test("the scan's title is set in the type of every other page's title (issue 44: 7)", async ({ page }) => {
  const titleType = async (address: string) => {
    await page.goto(address);
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    return page.locator("main h1").first().evaluate((h1) => {
      const { fontFamily, fontSize, fontWeight, letterSpacing, lineHeight, fontStyle } = getComputedStyle(h1);
      // (The face by name differs with the page's place in the visit, whether the book's face is in yet.)
      const face = fontFamily === getComputedStyle(document.body).fontFamily ? "the text's" : fontFamily;
      return { face, fontSize, fontWeight, letterSpacing, lineHeight, fontStyle };
    });
  };
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    const about = await titleType("/about");
    expect(await titleType("/apply"), `/apply at ${width} px`).toEqual(about);
    expect(await titleType("/assessment"), `/assessment at ${width} px`).toEqual(about);
  }
});

test("the keys are named to whoever answers by keyboard, not to a pointer", async ({ page }) => {
  await page.goto("/assessment");
  const hint = page.getByTestId("scan-keys");
  await page.getByRole("radio", { name: /^B\./ }).click();
  await expect(page.getByRole("radio", { name: /^B\./ })).toBeFocused();
  await expect(hint).toBeHidden();
  await page.keyboard.press("ArrowDown");
  await expect(hint).toBeVisible();
  await expect(hint).toHaveText("Arrow keys choose, Enter goes on");
});
