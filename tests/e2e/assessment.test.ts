import type { Page } from "@playwright/test";
import { seriousViolations } from "./axe.ts";
import { expect, test } from "./page-test.ts";
import { QUESTION_NUMBERS, type Answer, type Answers } from "../../src/lib/assessment/model.ts";
import { scoreAnswers } from "../../src/lib/assessment/scoring.ts";
import { loadAssessment } from "../../src/server/assessment/content.ts";

const content = loadAssessment();
const all = (answer: Answer): Answers => Object.fromEntries(QUESTION_NUMBERS.map((n) => [n, answer]));

const progress = (page: Page) => page.getByTestId("progress-text");
const option = (page: Page, answer: Answer) => page.getByRole("radio", { name: new RegExp(`^${answer}\\.`) });
const nextButton = (page: Page) => page.getByRole("button", { name: /^(Next|Complete Scan)$/ });
/** A toast in the notification region (its items carry role status or alert). */
const toast = (page: Page, title: string) =>
  page.getByRole("region", { name: "Notifications (F8)" }).locator("[role=status], [role=alert]").filter({ hasText: title });

/** Opens the scan and waits until its session exists. */
async function open(page: Page): Promise<void> {
  const created = page.waitForResponse((r) => r.url().endsWith("/api/assessment/session") && r.request().method() === "POST");
  await page.goto("/assessment");
  expect((await created).status()).toBe(201);
  await expect(progress(page)).toHaveText("1 of 15");
}

/** Answers questions `from` to `to` (inclusive) with `answers`, pressing Next after each. */
async function answerQuestions(page: Page, answers: Answers, from = 1, to = 15): Promise<void> {
  for (let n = from; n <= to; n++) {
    await expect(progress(page)).toHaveText(`${n} of 15`);
    await option(page, answers[n]!).check();
    await nextButton(page).click();
    if (n < 15) await expect(progress(page)).toHaveText(`${n + 1} of 15`);
  }
  if (to === 15) await expect(page.getByRole("heading", { name: "One Final Step" })).toBeVisible();
}

async function submitContact(page: Page, name = "Ada Lovelace", email = "ada@example.com"): Promise<void> {
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Get My Results" }).click();
}

async function expectResult(page: Page, answers: Answers): Promise<void> {
  const expected = scoreAnswers(content, answers);
  await expect(page.getByRole("heading", { name: "Scan Complete" })).toBeVisible();
  await expect(page.getByTestId("total-score")).toHaveText(String(expected.totalScore));
  await expect(page.getByTestId("level")).toHaveText(expected.level);
}

test.describe("the Mental Operating System Scan", () => {
  test("the whole flow: questions, validation toasts, name and email, and the result", async ({ page }) => {
    await open(page);
    await expect(page.getByRole("progressbar", { name: "Scan progress" })).toHaveAttribute("aria-valuenow", "7");
    await expect(page.getByRole("button", { name: "Previous" })).toBeDisabled();
    await expect(nextButton(page)).toBeDisabled(); // aria-disabled until an answer is chosen
    await nextButton(page).click({ force: true });
    await expect(toast(page, "Please select an answer")).toContainText("Choose one option before proceeding.");
    await expect(progress(page)).toHaveText("1 of 15");

    const answers = all("C");
    await answerQuestions(page, answers, 1, 14);
    await expect(page.getByRole("progressbar", { name: "Scan progress" })).toHaveAttribute("aria-valuenow", "100");
    await option(page, "C").check();
    await expect(nextButton(page)).toHaveText("Complete Scan");
    await nextButton(page).click();
    await expect(page.getByRole("heading", { name: "One Final Step" })).toBeVisible();

    await page.getByRole("button", { name: "Get My Results" }).click();
    await expect(toast(page, "Required Information")).toContainText("Please provide both name and email.");
    await page.getByLabel("Name").fill("   ");
    await page.getByLabel("Email").fill("ada@example.com");
    await page.getByRole("button", { name: "Get My Results" }).click();
    await expect(toast(page, "Required Information")).toBeVisible();
    await page.getByLabel("Name").fill("Ada");
    await page.getByLabel("Email").fill("ada@example");
    await page.getByRole("button", { name: "Get My Results" }).click();
    await expect(toast(page, "Invalid Email")).toContainText("Please enter a valid email address.");

    // Hold the completion so the pending state can be seen.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/assessment/session/*/complete", async (route) => {
      await held;
      await route.continue();
    });
    await submitContact(page);
    await expect(page.getByRole("button", { name: "Analyzing..." })).toBeDisabled();
    release();
    await expectResult(page, answers);

    const expected = scoreAnswers(content, answers);
    await expect(page.getByRole("heading", { name: "What this tells us:" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Next move:" })).toBeVisible();
    const bullets = expected.band.description.split("\n").filter((l) => l.startsWith("• "));
    await expect(page.getByRole("listitem").filter({ hasText: bullets[0]!.slice(2) })).toBeVisible();
    const quote = expected.band.description.trim().split("\n").at(-1)!;
    await expect(page.locator("blockquote p.italic")).toHaveText(quote);

    const claim = page.getByRole("link", { name: "Claim Your Free Session" });
    await expect(claim).toHaveAttribute("target", "_blank");
    await expect(claim).toHaveAttribute("href", /^https?:\/\//);
    await page.getByRole("link", { name: "Start The Journey" }).click();
    await expect(page).not.toHaveURL(/\/assessment/);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });

  test("the page carries every question and option text, but no points, levels or descriptions", async ({ request }) => {
    const html = await (await request.get("/assessment")).text();
    const decoded = html.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, "&");
    for (const q of content.questions) {
      expect(decoded).toContain(q.text);
      for (const o of q.options) expect(decoded).toContain(o.text);
    }
    expect(decoded).not.toMatch(/"points"|"dimension"/);
    for (const band of content.bands) {
      expect(decoded).not.toContain(band.level);
      expect(decoded).not.toContain(band.description.slice(0, 60));
    }
  });

  test("options form a radio group operable by keyboard", async ({ page }) => {
    await open(page);
    await option(page, "A").focus();
    await page.keyboard.press("Space");
    await expect(option(page, "A")).toBeChecked();
    await page.keyboard.press("ArrowDown");
    await expect(option(page, "B")).toBeChecked();
    await expect(option(page, "A")).not.toBeChecked();
    await page.keyboard.press("Tab"); // Previous is disabled, so Tab goes to Next
    await expect(nextButton(page)).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(progress(page)).toHaveText("2 of 15");
  });

  test("going back keeps the chosen answers, and a changed answer counts", async ({ page }) => {
    await open(page);
    const answers = all("A");
    await answerQuestions(page, answers, 1, 3);
    await page.getByRole("button", { name: "Previous" }).click();
    await expect(progress(page)).toHaveText("3 of 15");
    await expect(option(page, "A")).toBeChecked();
    await page.getByRole("button", { name: "Previous" }).click();
    await page.getByRole("button", { name: "Previous" }).click();
    await expect(progress(page)).toHaveText("1 of 15");
    await expect(page.getByRole("button", { name: "Previous" })).toBeDisabled();
    await expect(option(page, "A")).toBeChecked();
    answers[1] = "D";
    await option(page, "D").check();
    await nextButton(page).click();
    await expect(progress(page)).toHaveText("2 of 15");
    await expect(option(page, "A")).toBeChecked();
    await nextButton(page).click();
    await nextButton(page).click();
    await answerQuestions(page, answers, 4, 15);
    await submitContact(page);
    await expectResult(page, answers);
  });

  test("a reload resumes at the same question with the answers given so far", async ({ page }) => {
    const sessions: string[] = [];
    page.on("request", (r) => {
      if (r.url().endsWith("/api/assessment/session") && r.method() === "POST") sessions.push(r.url());
    });
    await open(page);
    const answers = all("B");
    answers[2] = "D";
    await answerQuestions(page, answers, 1, 4);
    await expect(progress(page)).toHaveText("5 of 15");

    await page.reload();
    await expect(progress(page)).toHaveText("5 of 15");
    await page.getByRole("button", { name: "Previous" }).click();
    await expect(option(page, "B")).toBeChecked();
    await page.getByRole("button", { name: "Previous" }).click();
    await page.getByRole("button", { name: "Previous" }).click();
    await expect(progress(page)).toHaveText("2 of 15");
    await expect(option(page, "D")).toBeChecked();
    for (let n = 2; n <= 4; n++) await nextButton(page).click();
    await answerQuestions(page, answers, 5, 15);
    await submitContact(page);
    await expectResult(page, answers);
    expect(sessions).toHaveLength(1);

    // A completed scan is forgotten: opening the page again starts a new one.
    await page.goto("/assessment");
    await expect(progress(page)).toHaveText("1 of 15");
    await expect(option(page, "B")).not.toBeChecked();
  });

  for (const kind of ["unknown", "completed"] as const) {
    test(`a stored session that is ${kind} on the server starts a fresh scan`, async ({ page }) => {
      await open(page);
      let sessionId: string = crypto.randomUUID();
      if (kind === "completed") {
        const created = await page.request.post("/api/assessment/session", { data: {} });
        sessionId = ((await created.json()) as { id: string }).id;
        for (const n of QUESTION_NUMBERS) {
          await page.request.post("/api/assessment/response", { data: { sessionId, questionNumber: n, answer: "A" } });
        }
        const done = await page.request.post(`/api/assessment/session/${sessionId}/complete`, { data: { name: "A", email: "a@b.co" } });
        expect(done.status()).toBe(200);
      }
      await page.evaluate(
        (id) =>
          sessionStorage.setItem(
            "assessmentScan",
            JSON.stringify({ v: 1, sessionId: id, index: 3, answers: { 1: "A", 2: "B", 3: "C" }, confirmed: [1, 2, 3] }),
          ),
        sessionId,
      );
      await page.reload();
      await expect(toast(page, "New Scan")).toBeVisible();
      await expect(progress(page)).toHaveText("1 of 15");
      await expect(option(page, "A")).not.toBeChecked();
      const stored = await page.evaluate(() => JSON.parse(sessionStorage.getItem("assessmentScan") ?? "null") as { sessionId: string } | null);
      expect(stored?.sessionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(stored?.sessionId).not.toBe(sessionId);
    });
  }

  test("a save that keeps failing is retried, the reader is told, and the answer is sent before completing", async ({ page }) => {
    await open(page);
    let failing = true;
    const attemptsFor2: number[] = [];
    await page.route("**/api/assessment/response", async (route) => {
      const body = route.request().postDataJSON() as { questionNumber: number };
      if (body.questionNumber === 2) attemptsFor2.push(Date.now());
      if (failing && body.questionNumber === 2) await route.abort("failed");
      else await route.continue();
    });
    const answers = all("D");
    answers[2] = "A";
    await answerQuestions(page, answers, 1, 2);
    await expect(toast(page, "Answer Not Saved")).toContainText("question 2");
    expect(attemptsFor2).toHaveLength(3); // the first try and two retries
    failing = false;
    await answerQuestions(page, answers, 3, 15);
    await submitContact(page);
    await expectResult(page, answers);
    expect(attemptsFor2).toHaveLength(4); // sent again before completing
  });

  test("a failing completion closes the form with an error toast, and trying again works", async ({ page }) => {
    await open(page);
    const answers = all("A");
    await answerQuestions(page, answers);
    await page.route("**/api/assessment/session/*/complete", (route) =>
      route.fulfill({ status: 500, contentType: "application/json", body: '{"error":{"code":"internal","message":"x"}}' }),
    );
    await submitContact(page);
    await expect(toast(page, "Error")).toContainText("Failed to complete assessment. Please try again.");
    await expect(page.getByRole("heading", { name: "One Final Step" })).toBeHidden();
    await expect(progress(page)).toHaveText("15 of 15");
    await expect(nextButton(page)).toHaveText("Complete Scan");
    await expect(nextButton(page)).toBeEnabled();

    await page.unroute("**/api/assessment/session/*/complete");
    await nextButton(page).click();
    await expect(page.getByLabel("Name")).toHaveValue("Ada Lovelace");
    await page.getByRole("button", { name: "Get My Results" }).click();
    await expectResult(page, answers);
  });

  test("a failing session start shows the error toast; the start, with the spec's payload, is sent once", async ({ page }) => {
    const sent: unknown[] = [];
    await page.route("**/api/assessment/session", (route) => {
      sent.push(route.request().postDataJSON());
      return route.fulfill({ status: 503, contentType: "application/json", body: '{"error":{"code":"database_unavailable","message":"x"}}' });
    });
    await page.goto("/assessment");
    await expect(toast(page, "Error")).toContainText("Failed to start assessment. Please try again.");
    await page.waitForTimeout(2500); // longer than any retry would wait
    expect(sent).toEqual([{ userId: null, completed: "false", score: null, scoreBreakdown: null }]);
  });

  for (const theme of ["dark", "light"] as const) {
    test(`no serious accessibility violations on a question, the form and the result (${theme} theme)`, async ({ page }) => {
      await page.addInitScript((value) => localStorage.setItem("book-theme", value), theme);
      const violations = () => seriousViolations(page);
      await open(page);
      await option(page, "B").check();
      // Next is enabled once the woken scan has read the answer (then its fade to full colour ends).
      await expect(nextButton(page)).toBeEnabled();
      expect(await violations()).toEqual([]);
      await answerQuestions(page, all("B"));
      expect(await violations()).toEqual([]);
      await submitContact(page);
      await expectResult(page, all("B"));
      expect(await violations()).toEqual([]);
    });
  }
});
