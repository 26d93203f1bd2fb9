/**
 * Submissions that read well (issue 22, point 5): View Answers shows each question and the chosen
 * answer in words beside its letter, on a phone and a desktop, in both themes; and the drop-off
 * figures count a scan as started by its first answer, not by the visit that opened it.
 */
import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./page-test.ts";
import { loadAssessment } from "../../src/server/assessment/content.ts";
import type { Answer } from "../../src/lib/assessment/model.ts";
import { adminLogin, unique } from "./admin-fixtures.ts";
import { seriousViolations } from "./axe.ts";

const { questions } = loadAssessment();
const LETTERS: Answer[] = ["A", "B", "C", "D"];
/** Question n gets a different letter than its neighbours: A, B, C, D, A, ... */
const letterOf = (questionNumber: number) => LETTERS[(questionNumber - 1) % 4]!;

async function completedScan(request: APIRequestContext, name: string): Promise<void> {
  const opened = await request.post("/api/assessment/session", { data: { userId: null, completed: "false", score: 0, scoreBreakdown: null } });
  expect(opened.ok()).toBe(true);
  const { id } = (await opened.json()) as { id: string };
  for (let questionNumber = 1; questionNumber <= 15; questionNumber++) {
    const saved = await request.post("/api/assessment/response", { data: { sessionId: id, questionNumber, answer: letterOf(questionNumber) } });
    expect(saved.ok()).toBe(true);
  }
  const done = await request.post(`/api/assessment/session/${id}/complete`, { data: { name, email: `${name.replace(/\W+/g, ".")}@example.com` } });
  expect(done.ok()).toBe(true);
}

for (const [theme, width] of [
  ["light", 390],
  ["dark", 1280],
] as const) {
  test(`View Answers shows each question and the chosen answer in words (${theme}, ${width} px)`, async ({ page, request }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.addInitScript((value) => localStorage.setItem("book-theme", value), theme);
    const name = unique("Reader");
    await completedScan(request, name);
    await adminLogin(page);
    await page.getByRole("tab", { name: /^Assessment Submissions/ }).click();
    const mine = page.getByRole("list", { name: "Submissions" }).getByRole("listitem").filter({ hasText: name });
    await mine.getByRole("button", { name: "View Answers" }).click();
    const answers = mine.getByRole("list", { name: `Answers of ${name}` }).getByRole("listitem");
    await expect(answers).toHaveCount(15);
    for (const [i, question] of questions.entries()) {
      const letter = letterOf(question.id);
      const option = question.options.find((o) => o.value === letter)!;
      const item = answers.nth(i);
      await expect(item).toContainText(`Q${question.id}`);
      await expect(item).toContainText(question.text);
      await expect(item).toContainText(`Answer ${letter}`);
      await expect(item).toContainText(option.text);
      // Only the chosen option is shown.
      for (const other of question.options.filter((o) => o.value !== letter)) await expect(item).not.toContainText(other.text);
    }
    // Long answers wrap inside the card: nothing runs off the side of a phone.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await mine.scrollIntoViewIfNeeded();
    expect(await seriousViolations(page)).toEqual([]);
  });
}

test("the drop-off figures say a visit opens a scan and its first answer starts it", async ({ page, request }) => {
  await adminLogin(page);
  const funnel = async () => (await (await page.request.get("/api/admin/assessment/funnel")).json()) as { opened: number; started: number; completed: number };
  // A visit: the session is opened, nothing answered.
  expect((await request.post("/api/assessment/session", { data: { userId: null, completed: "false", score: 0, scoreBreakdown: null } })).ok()).toBe(true);
  const figures = await funnel();
  expect(figures.opened).toBeGreaterThan(figures.started);
  await page.getByRole("tab", { name: /^Assessment Submissions/ }).click();
  const summary = page.getByTestId("funnel-summary");
  await expect(summary).toContainText(`${figures.opened} scans opened, ${figures.started} started, ${figures.completed} completed (`);
  await expect(summary).toContainText("A visit to the assessment opens a scan; its first answer starts it.");
});
