/**
 * The admin panel's other tabs and tools (issue 6): assessment submissions (answers, filter, CSV,
 * score chart), access codes (issue one and read with it at /resume, deactivate, reset), photo
 * upload with its toasts and preview, and the publishing status.
 */
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./page-test.ts";
import sharp from "sharp";
import { adminLogin, chapterCard, createChapter, createSubsection, showLevel, unique } from "./admin-fixtures.ts";
import { loginAs } from "./fixtures.ts";
import { hydrated } from "./reader-helpers.ts";

const toast = (page: Page) => page.getByRole("region", { name: "Notifications (F8)" });

/** A scan through the public API: 15 answers, completed with a name and email unless `complete` is false. */
async function takeScan(request: APIRequestContext, name: string, answer: string, complete = true): Promise<string> {
  const started = await request.post("/api/assessment/session", { data: { userId: null, completed: "false", score: 0, scoreBreakdown: null } });
  expect(started.ok()).toBe(true);
  const { id } = (await started.json()) as { id: string };
  for (let questionNumber = 1; questionNumber <= (complete ? 15 : 3); questionNumber++) {
    const saved = await request.post("/api/assessment/response", { data: { sessionId: id, questionNumber, answer } });
    expect(saved.ok()).toBe(true);
  }
  if (complete) {
    const done = await request.post(`/api/assessment/session/${id}/complete`, { data: { name, email: `${name.replace(/\W+/g, ".")}@example.com` } });
    expect(done.ok()).toBe(true);
  }
  return id;
}

test.describe("assessment submissions", () => {
  test("newest first, answers, In progress, filter, CSV and the score chart", async ({ page, request }) => {
    const name = unique("Scan Taker");
    await takeScan(request, name, "B");
    await takeScan(request, "ignored", "C", false);
    await adminLogin(page);
    const { total, all, submissions: sessions } = (await (await page.request.get("/api/admin/assessment/sessions?answered=true")).json()) as {
      total: number;
      all: number;
      submissions: { name: string | null; score: number }[];
    };
    const tab = page.getByRole("tab", { name: `Assessment Submissions (${total})` });
    await tab.click();
    await expect(tab).toHaveAttribute("aria-selected", "true");
    await expect(page.getByTestId("submission-counts")).toHaveText(
      `${total} scans started, of ${all} opened (a visit to the assessment opens a scan; its first answer starts it).`,
    );

    const cards = page.getByRole("list", { name: "Submissions" }).getByRole("listitem").filter({ has: page.getByRole("button", { name: /Answers$/ }) });
    // The in-progress scan started last, so it comes first.
    await expect(cards.first()).toContainText("In progress");
    const mine = cards.filter({ hasText: name });
    await expect(mine).toContainText(`${name.replace(/\W+/g, ".")}@example.com`);
    const score = sessions.find((s) => s.name === name)!.score;
    await expect(mine).toContainText(String(score));
    await expect(mine).not.toContainText("In progress");

    await mine.getByRole("button", { name: "View Answers" }).click();
    const answers = mine.getByRole("list", { name: `Answers of ${name}` }).getByRole("listitem");
    await expect(answers).toHaveCount(15);
    await expect(answers.first()).toContainText("Q1");
    await expect(answers.first()).toContainText("Answer B");
    await expect(answers.last()).toContainText("Q15");
    await expect(answers.last()).toContainText("Answer B");
    await mine.getByRole("button", { name: "Hide Answers" }).click();
    await expect(answers).toHaveCount(0);

    await page.getByLabel("Show").selectOption("completed");
    await expect(cards.filter({ hasText: "In progress" })).toHaveCount(0);
    await expect(mine).toBeVisible();
    await page.getByLabel("Show").selectOption("in-progress");
    await expect(mine).toHaveCount(0);
    await expect(cards.first()).toContainText("In progress");

    // The chart's table holds every completed scan once.
    const completed = sessions.filter((s) => s.name !== null).length;
    await expect(page.getByText(`Score distribution (${completed} completed)`)).toBeVisible();
    const counts = await page.getByRole("figure", { name: /^Score distribution/ }).getByRole("table").getByRole("cell").allTextContents();
    expect(counts.reduce((sum, c) => sum + Number(c), 0)).toBe(completed);

    const csv = page.getByRole("link", { name: "Download CSV" });
    await expect(csv).toHaveAttribute("href", "/api/admin/assessment/sessions.csv?answered=true");
    const download = page.waitForEvent("download");
    await csv.click();
    const file = await download;
    const text = await (await file.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString("utf8"));
    expect(text).toContain(name);
  });
});

test("scans without a single answer are left out of the list until asked for", async ({ page, request }) => {
  const started = await request.post("/api/assessment/session", { data: { userId: null, completed: "false", score: null, scoreBreakdown: null } });
  const { id: empty } = (await started.json()) as { id: string };
  await adminLogin(page);
  const counts = async (answered: boolean) =>
    (await (await page.request.get(`/api/admin/assessment/sessions?answered=${answered}`)).json()) as { total: number; all: number; submissions: { id: string }[] };
  const answered = await counts(true);
  expect(answered.submissions.map((s) => s.id)).not.toContain(empty);
  expect(answered.all).toBeGreaterThan(answered.total);
  await page.getByRole("tab", { name: `Assessment Submissions (${answered.total})` }).click();
  const cards = page.getByRole("list", { name: "Submissions" }).getByRole("listitem").filter({ has: page.getByRole("button", { name: /Answers$/ }) });
  await expect(cards.first()).toBeVisible();
  const shown = await cards.count();
  expect(shown).toBe(Math.min(answered.total, 100));

  await page.getByLabel("Include scans with no answers").check();
  await expect(page.getByTestId("submission-counts")).toHaveText(`${answered.all} scans opened, started or not.`);
  await expect(page.getByRole("tab", { name: `Assessment Submissions (${answered.all})` })).toBeVisible();
  // The newest scan is the empty one: it leads the list now, with no answers to show.
  await cards.first().getByRole("button", { name: "View Answers" }).click();
  await expect(cards.first()).toContainText("No answers yet.");
  await expect(page.getByRole("link", { name: "Download CSV" })).toHaveAttribute("href", "/api/admin/assessment/sessions.csv");
});

test.describe("access codes", () => {
  test("issue a code, shown once; a reader logs in with it; deactivate and reset", async ({ page, browser }) => {
    await adminLogin(page);
    await page.getByRole("tab", { name: "Access Codes" }).click();
    await page.getByRole("combobox", { name: "Level", exact: true }).selectOption("Architect");
    await page.getByRole("button", { name: "Issue Code" }).click();
    await expect(toast(page)).toContainText("Access code issued for Architect");
    const issued = page.getByTestId("issued-code");
    await expect(issued).toContainText("The password is shown only now");
    const login = (await issued.getByTestId("issued-login").textContent())!;
    const password = (await issued.getByTestId("issued-password").textContent())!;
    await expect(issued.getByRole("button", { name: "Copy password" })).toBeVisible();
    const row = page.getByRole("row").filter({ hasText: login });
    await expect(row).toContainText("Architect");
    await expect(row).toContainText("Active");
    await expect(row).toContainText("Never");
    await issued.getByRole("button", { name: "Done" }).click();
    await expect(issued).toHaveCount(0);

    // A reader, in a browser of their own, enters with it.
    const reader = await browser.newContext();
    const readerPage = await reader.newPage();
    await readerPage.goto("/resume");
    await hydrated(readerPage);
    await readerPage.getByLabel("Access Code").fill(login);
    await readerPage.getByLabel("Password").fill(password);
    await readerPage.getByRole("button", { name: "Enter" }).click();
    await expect(readerPage.getByText("System Access Granted")).toBeVisible();
    await expect(readerPage.getByText("Level: Architect")).toBeVisible();
    await reader.close();

    await page.reload();
    await hydrated(page);
    await page.getByRole("tab", { name: "Access Codes" }).click();
    await expect(row).not.toContainText("Never");
    await row.getByRole("button", { name: `Deactivate ${login}` }).click();
    const confirm = page.getByRole("alertdialog", { name: "Deactivate this code?" });
    await expect(confirm).toContainText(`${login} opens nothing from now on`);
    await confirm.getByRole("button", { name: "Deactivate" }).click();
    await expect(row).toContainText("Inactive");
    const denied = await page.request.post("/api/auth/validate", { data: { login, password } });
    expect(denied.ok()).toBe(false);
    await row.getByRole("button", { name: `Reactivate ${login}` }).click();
    await expect(row.getByRole("cell", { name: "Active", exact: true })).toBeVisible();

    await row.getByRole("button", { name: `Reset password of ${login}` }).click();
    await page.getByRole("alertdialog", { name: "Reset password?" }).getByRole("button", { name: "Reset Password" }).click();
    await expect(issued).toContainText(`New password for ${login}`);
    const fresh = (await issued.getByTestId("issued-password").textContent())!;
    expect(fresh).not.toBe(password);
    const anon = await browser.newContext();
    expect((await anon.request.post("/api/auth/validate", { data: { login, password } })).ok()).toBe(false);
    expect((await anon.request.post("/api/auth/validate", { data: { login, password: fresh } })).ok()).toBe(true);
    await anon.close();
  });
});

test.describe("photos", () => {
  test("upload a photo into a subsection: toast, preview, stored and served", async ({ page }) => {
    await adminLogin(page);
    const chapter = await createChapter(page);
    await createSubsection(page, chapter.id, "Pictured", 0);
    await page.reload();
    await hydrated(page);
    await showLevel(page, "Mastermind");
    const card = chapterCard(page, chapter.title);
    await card.getByRole("button", { name: `Expand ${chapter.title}` }).click();
    await card.getByRole("button", { name: "Edit subsection Pictured" }).click();
    const dialog = page.getByRole("dialog", { name: "Edit Subsection" });

    const png = await sharp({ create: { width: 48, height: 32, channels: 3, background: { r: 190, g: 90, b: 30 } } }).png().toBuffer();
    await dialog.getByLabel("Upload an image").setInputFiles({ name: "sunrise.png", mimeType: "image/png", buffer: png });
    await expect(toast(page)).toContainText("Photo uploaded successfully");
    await expect(dialog.getByLabel("Or photo URL")).toHaveValue(/^\/uploads\/.+/);
    const url = await dialog.getByLabel("Or photo URL").inputValue();
    await expect(dialog.getByTestId("photo-preview")).toBeVisible();
    await expect.poll(() => dialog.getByTestId("photo-preview").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(48);
    await dialog.getByLabel("Photo description (alt text)").fill("An orange field");
    await dialog.getByRole("button", { name: "Save Changes" }).click();
    await expect(toast(page)).toContainText("Subsection updated successfully");
    const stored = (await (await page.request.get(`/api/chapters/${chapter.id}/subsections`)).json()) as { photo: string; photoAlt: string }[];
    expect(stored[0]).toMatchObject({ photo: url, photoAlt: "An orange field" });
    const served = await page.request.get(url);
    expect(served.status()).toBe(200);
    expect(served.headers()["content-type"]).toMatch(/^image\//);
  });

  test("a reader's phone downloads a phone-sized AVIF of an uploaded photo, a desktop a larger one, and nothing moves", async ({ page, browser }) => {
    await adminLogin(page);
    const chapter = await createChapter(page);
    const wide = await sharp({ create: { width: 2400, height: 1600, channels: 3, background: { r: 40, g: 70, b: 90 } } }).jpeg().toBuffer();
    const uploaded = await page.request.post("/api/upload", { multipart: { photo: { name: "wide.jpg", mimeType: "image/jpeg", buffer: wide } } });
    expect(uploaded.status()).toBe(200);
    const { photoUrl } = (await uploaded.json()) as { photoUrl: string };
    const part = await page.request.post("/api/admin/subsections", {
      data: { chapterId: chapter.id, title: "Wide view", content: "Text under the photo.", photo: photoUrl, photoAlt: "A wide view", order: 0 },
    });
    expect(part.status()).toBe(201);
    const base = photoUrl.replace(/\.jpg$/, "");
    for (const [width, expected] of [
      [390, "480"],
      [1280, "960"],
    ] as const) {
      const reader = await browser.newContext({ viewport: { width, height: 844 }, deviceScaleFactor: 1 });
      const readerPage = await reader.newPage();
      await loginAs(readerPage, "Mastermind");
      // The photo arrives late: the text under it must already be where it stays.
      await readerPage.route("**/uploads/**", async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 800));
        await route.continue();
      });
      await readerPage.goto(`/${chapter.slug}`, { waitUntil: "domcontentloaded" });
      const text = readerPage.getByText("Text under the photo.");
      const before = (await text.boundingBox())!.y;
      const img = readerPage.getByRole("img", { name: "A wide view" });
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
      expect((await text.boundingBox())!.y).toBe(before);
      expect(await img.evaluate((el: HTMLImageElement) => el.currentSrc)).toMatch(new RegExp(`${base}-${expected}\\.avif$`));
      expect(await img.getAttribute("width")).toBe("2400");
      expect(await img.getAttribute("height")).toBe("1600");
      await reader.close();
    }
  });

  test("upload failures and a broken URL: 'Upload Failed', 'Upload Error', the preview hides", async ({ page }) => {
    await adminLogin(page);
    const chapter = await createChapter(page);
    await showLevel(page, "Mastermind");
    await page.reload();
    await hydrated(page);
    await showLevel(page, "Mastermind");
    await chapterCard(page, chapter.title).getByRole("button", { name: `Add subsection to ${chapter.title}` }).click();
    const dialog = page.getByRole("dialog", { name: "Add Subsection" });
    const upload = dialog.getByLabel("Upload an image");

    // A text file named like a picture: the server judges by the bytes and says why.
    await upload.setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("just some text, not an image") });
    await expect(toast(page)).toContainText("Upload Failed");
    await expect(toast(page)).not.toContainText("Failed to upload photo");
    await expect(dialog.getByLabel("Or photo URL")).toHaveValue("");

    await page.route("**/api/upload", (route) => route.abort("connectionrefused"));
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#888" } }).png().toBuffer();
    await upload.setInputFiles({ name: "tiny.png", mimeType: "image/png", buffer: png });
    await expect(toast(page)).toContainText("Upload Error");
    await expect(toast(page)).toContainText("Network error occurred while uploading");

    await page.route("**/api/upload", (route) => route.fulfill({ status: 500, body: "" }), { times: 1 });
    await upload.setInputFiles({ name: "tiny2.png", mimeType: "image/png", buffer: png });
    await expect(toast(page)).toContainText("Failed to upload photo");

    await dialog.getByLabel("Or photo URL").fill("/uploads/no-such-photo.png");
    await expect(dialog.getByTestId("photo-preview")).toHaveCount(0);
  });
});

test.describe("publishing status", () => {
  test("shows live and the last publish time; polls while publishing; a failure shows its reason and a retry", async ({ page }) => {
    await adminLogin(page);
    await expect(page.getByTestId("publish-status")).toContainText("Last published");

    let calls = 0;
    let posted = false;
    await page.route("**/api/admin/publish", (route) => {
      if (route.request().method() === "POST") {
        posted = true;
        return route.fulfill({ status: 202, json: { state: "publishing", lastPublishedAt: null, error: null, pending: false } });
      }
      calls++;
      const at = "2026-11-22T08:00:00.000Z";
      if (posted) return route.fulfill({ json: { state: "live", lastPublishedAt: at, error: null, pending: false } });
      return route.fulfill({
        json: calls < 3 ? { state: "publishing", lastPublishedAt: at, error: null, pending: false } : { state: "failed", lastPublishedAt: at, error: "astro build exited with code 1", pending: true },
      });
    });
    await page.reload();
    await hydrated(page);
    const status = page.getByTestId("publish-status");
    await expect(status).toContainText("Publishing...");
    await expect(status).toContainText("Publish failed", { timeout: 10_000 });
    await expect(status).toContainText("astro build exited with code 1");
    await status.getByRole("button", { name: "Retry Publish" }).click();
    await expect(status).toContainText("Site: Live", { timeout: 10_000 });
    expect(posted).toBe(true);
  });
});
