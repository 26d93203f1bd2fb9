/**
 * Failures look like failures (issue 22, point 1): a list the server fails to send shows the error
 * and a Retry button, never an empty list or a "(0)" count, on every tab and list of the admin
 * panel; Retry loads it. A save the server fails keeps its dialog open with everything typed.
 * At 390 px and 1280 px.
 */
import type { Page } from "@playwright/test";
import { seriousViolations } from "./axe.ts";
import { expect, test } from "./page-test.ts";
import { adminCredentials, chapterCard, createChapter, createSubsection, openPanel, showLevel, unique } from "./admin-fixtures.ts";

const REASON = "The database is down";

/**
 * Makes the browser's requests to `paths` (with `method`) answer 500 while `failing` is true;
 * other requests go through.
 */
async function failing(page: Page, method: string, paths: (string | RegExp)[]) {
  const state = { failing: true };
  const matches = (url: URL) => paths.some((p) => (typeof p === "string" ? url.pathname === p : p.test(url.pathname)));
  await page.route(matches, async (route) => {
    if (!state.failing || route.request().method() !== method) return route.fallback();
    await route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ error: { code: "internal", message: REASON } }) });
  });
  return state;
}

async function signIn(page: Page) {
  const response = await page.request.post("/api/admin/login", { data: adminCredentials() });
  expect(response.status()).toBe(200);
}

/** The error block of a list that failed: its sentence names the list and gives the server's reason. */
const loadError = (page: Page, what: string) => page.getByRole("alert").filter({ hasText: `Error loading ${what}: 500: ${REASON}` });

for (const width of [390, 1280]) {
  test.describe(`at ${width} px`, () => {
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
    });

    test("the chapter list, Recently Deleted Items and a chapter's subsections show their error and load on Retry", async ({ page }) => {
      await signIn(page);
      const chapter = await createChapter(page, { level: "Mastermind" });
      const subsection = await createSubsection(page, chapter.id, unique("E2E Subsection"), 0);
      const chapters = await failing(page, "GET", ["/api/admin/chapters"]);
      const deleted = await failing(page, "GET", ["/api/admin/chapters/deleted/recent", "/api/admin/subsections/deleted/recent"]);
      await openPanel(page);

      const error = loadError(page, "chapters");
      await expect(error).toBeVisible();
      // No count while the list failed: "(0)" would read as an empty book.
      await expect(page.getByRole("tab", { name: "Chapters", exact: true })).toBeVisible();
      await expect(page.getByRole("tab", { name: /^Chapters \(/ })).toHaveCount(0);
      await expect(page.getByText(/No chapters in/)).toHaveCount(0);
      expect(await seriousViolations(page)).toEqual([]);

      chapters.failing = false;
      await error.getByRole("button", { name: "Retry" }).click();
      await expect(error).toBeHidden();
      await expect(page.getByRole("tab", { name: /^Chapters \(\d+\)$/ })).toBeVisible();
      // The deleted items still fail: their card says so, with its own Retry.
      const deletedError = loadError(page, "Recently Deleted Items");
      await expect(deletedError).toBeVisible();
      deleted.failing = false;
      await deletedError.getByRole("button", { name: "Retry" }).click();
      await expect(deletedError).toBeHidden();

      const subsections = await failing(page, "GET", [`/api/admin/chapters/${chapter.id}/subsections`]);
      await showLevel(page, "Mastermind");
      const card = chapterCard(page, chapter.title);
      await card.getByRole("button", { name: `Expand ${chapter.title}` }).click();
      const subsectionsError = card.getByRole("alert").filter({ hasText: `Error loading subsections: 500: ${REASON}` });
      await expect(subsectionsError).toBeVisible();
      await expect(card.getByText("Loading subsections...")).toHaveCount(0);
      subsections.failing = false;
      await subsectionsError.getByRole("button", { name: "Retry" }).click();
      await expect(subsectionsError).toBeHidden();
      await expect(card.getByText(subsection.title)).toBeVisible();
    });

    test("the submissions, the drop-off figures, access codes and webhooks show their error and load on Retry", async ({ page }) => {
      await signIn(page);
      const submissions = await failing(page, "GET", ["/api/admin/assessment/sessions"]);
      const funnel = await failing(page, "GET", ["/api/admin/assessment/funnel"]);
      const codes = await failing(page, "GET", ["/api/admin/access-codes"]);
      const webhooks = await failing(page, "GET", ["/api/admin/webhooks", "/api/admin/webhook-deliveries"]);
      await openPanel(page);

      await expect(page.getByRole("tab", { name: "Assessment Submissions", exact: true })).toBeVisible();
      await expect(page.getByRole("tab", { name: /^Assessment Submissions \(/ })).toHaveCount(0);
      await page.getByRole("tab", { name: "Assessment Submissions" }).click();
      const submissionsError = loadError(page, "submissions");
      const funnelError = loadError(page, "the drop-off figures");
      await expect(submissionsError).toBeVisible();
      await expect(funnelError).toBeVisible();
      await expect(page.getByText(/No submissions/)).toHaveCount(0);
      await expect(page.getByTestId("submission-counts")).toHaveCount(0);
      submissions.failing = false;
      await submissionsError.getByRole("button", { name: "Retry" }).click();
      await expect(submissionsError).toBeHidden();
      await expect(page.getByRole("tab", { name: /^Assessment Submissions \(\d+\)$/ })).toBeVisible();
      await expect(page.getByTestId("submission-counts")).toBeVisible();
      funnel.failing = false;
      await funnelError.getByRole("button", { name: "Retry" }).click();
      await expect(funnelError).toBeHidden();
      await expect(page.getByRole("alert")).toHaveCount(0);

      await page.getByRole("tab", { name: "Access Codes" }).click();
      const codesError = loadError(page, "access codes");
      await expect(codesError).toBeVisible();
      await expect(page.getByRole("heading", { name: "Access codes", exact: true })).toBeVisible();
      await expect(page.getByText("No access codes yet.")).toHaveCount(0);
      codes.failing = false;
      await codesError.getByRole("button", { name: "Retry" }).click();
      await expect(codesError).toBeHidden();
      await expect(page.getByRole("heading", { name: /^Access codes \(\d+\)$/ })).toBeVisible();

      await page.getByRole("tab", { name: "Webhooks" }).click();
      const webhooksError = loadError(page, "webhooks");
      await expect(webhooksError).toBeVisible();
      await expect(page.getByRole("heading", { name: "Webhooks", exact: true })).toBeVisible();
      await expect(page.getByText(/No webhooks yet|Nothing sent yet/)).toHaveCount(0);
      webhooks.failing = false;
      await webhooksError.getByRole("button", { name: "Retry" }).click();
      await expect(webhooksError).toBeHidden();
      await expect(page.getByRole("heading", { name: /^Webhooks \(\d+\)$/ })).toBeVisible();
    });

    test("a failed save keeps the Create, Edit and Add Subsection dialogs open with everything typed", async ({ page }) => {
      await signIn(page);
      await openPanel(page);
      const title = unique("E2E Failed Save");
      const content = `The text typed before the save failed. `.repeat(8).trim();

      // Create New Chapter.
      const create = await failing(page, "POST", ["/api/admin/chapters"]);
      await page.getByRole("button", { name: "Create New Chapter" }).click();
      let dialog = page.getByRole("dialog", { name: "Create New Chapter" });
      await dialog.getByLabel("Title").fill(title);
      await dialog.getByRole("combobox", { name: "Level" }).selectOption("Mastermind");
      await dialog.getByLabel("Reading time (minutes)").fill("9");
      await dialog.getByLabel("Order", { exact: true }).fill("950");
      await dialog.getByLabel("Content").fill(content);
      await dialog.getByRole("button", { name: "Create Chapter" }).click();
      await expect(page.getByText(`Failed to create chapter: 500: ${REASON}`)).toBeVisible();
      await expect(dialog).toBeVisible();
      await expect(dialog.getByLabel("Title")).toHaveValue(title);
      await expect(dialog.getByRole("combobox", { name: "Level" })).toHaveValue("Mastermind");
      await expect(dialog.getByLabel("Reading time (minutes)")).toHaveValue("9");
      await expect(dialog.getByLabel("Order", { exact: true })).toHaveValue("950");
      await expect(dialog.getByLabel("Content")).toHaveValue(content);
      create.failing = false;
      await dialog.getByRole("button", { name: "Create Chapter" }).click();
      await expect(dialog).toBeHidden();

      // Edit Chapter.
      await showLevel(page, "Mastermind");
      const card = chapterCard(page, title);
      const id = await card.getAttribute("data-chapter-id");
      const edit = await failing(page, "PUT", [`/api/admin/chapters/${id}`]);
      await card.getByRole("button", { name: `Edit ${title}` }).click();
      dialog = page.getByRole("dialog", { name: "Edit Chapter" });
      const newTitle = `${title} edited`;
      await dialog.getByLabel("Title").fill(newTitle);
      await dialog.getByLabel("Content").fill(`${content} And one more line.`);
      await dialog.getByRole("button", { name: "Save Changes" }).click();
      await expect(page.getByText(`Failed to update chapter: 500: ${REASON}`)).toBeVisible();
      await expect(dialog).toBeVisible();
      await expect(dialog.getByLabel("Title")).toHaveValue(newTitle);
      await expect(dialog.getByLabel("Content")).toHaveValue(`${content} And one more line.`);
      // The dialog's history, which failed to load, says so and loads on Retry.
      const history = await failing(page, "GET", [`/api/admin/chapters/${id}/revisions`]);
      await dialog.getByRole("button", { name: "Show history" }).click();
      const historyError = dialog.getByRole("alert").filter({ hasText: "Error loading the history." });
      await expect(historyError).toBeVisible();
      history.failing = false;
      await historyError.getByRole("button", { name: "Retry" }).click();
      await expect(historyError).toBeHidden();
      await expect(dialog.getByText(/No earlier versions yet/)).toBeVisible();
      edit.failing = false;
      await dialog.getByRole("button", { name: "Save Changes" }).click();
      await expect(dialog).toBeHidden();

      // Add Subsection.
      const edited = chapterCard(page, newTitle);
      const add = await failing(page, "POST", ["/api/admin/subsections"]);
      await edited.getByRole("button", { name: `Add subsection to ${newTitle}` }).click();
      dialog = page.getByRole("dialog", { name: "Add Subsection" });
      const subsectionTitle = unique("E2E Failed Subsection");
      await dialog.getByLabel("Title").fill(subsectionTitle);
      await dialog.getByLabel("Content").fill("A subsection typed before the save failed.");
      await dialog.getByRole("button", { name: "Add Subsection" }).click();
      await expect(page.getByText(`500: ${REASON}`, { exact: true }).first()).toBeVisible();
      await expect(dialog).toBeVisible();
      await expect(dialog.getByLabel("Title")).toHaveValue(subsectionTitle);
      await expect(dialog.getByLabel("Content")).toHaveValue("A subsection typed before the save failed.");
      add.failing = false;
      await dialog.getByRole("button", { name: "Add Subsection" }).click();
      await expect(dialog).toBeHidden();
    });
  });
}
