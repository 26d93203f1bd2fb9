/**
 * The members' notebook in a real browser (issue 32): writing beside a passage and reloading, a
 * second device, the connection lost and back, two devices at once, a forgotten passphrase
 * replaced with the recovery key, the operator resetting the code's password, /profile's notebook
 * (search, Markdown and JSON, erase), the download after the code has ended, and a reader not
 * signed in. At 390 and 1280 px, in both themes, with axe.
 */
import fs from "node:fs";
import type { Download, Page } from "@playwright/test";
import { expect, test } from "./page-test.ts";
import { adminLogin } from "./admin-fixtures.ts";
import { seriousViolations } from "./axe.ts";
import { device, firstChapter, newMember, note, openNotebook, PASSPHRASE, startNotebook, write } from "./notebook-fixtures.ts";
import { hydrated } from "./reader-helpers.ts";

// Each test derives keys (PBKDF2, 600,000 iterations) on one or two devices, several times: on a
// slow, loaded 2-core machine the heaviest took 27 s alone and timed out under the full run. Twice
// the suite's hang guard, the same assertions.
test.describe.configure({ timeout: 180_000 });

const read = async (download: Download) => fs.readFileSync((await download.path())!, "utf8");

async function setTheme(page: Page, theme: "light" | "dark") {
  await page.addInitScript((value) => localStorage.setItem("book-theme", value), theme);
}

for (const [width, theme] of [
  [390, "light"],
  [1280, "dark"],
] as const) {
  test(`at ${width} px, ${theme}: a member writes beside a passage; the note is saved, marked before it is opened, and there after a reload`, async ({ browser }) => {
    const { page, context } = await newMember(browser, { width, height: 844 });
    await setTheme(page, theme);
    const chapter = await firstChapter(page);
    await page.goto(`/${chapter.slug}`);
    const first = note(page, 0);
    // Named as a Note of its passage, and closed.
    await expect(first.toggle).toHaveText(/^Note/);
    await expect(first.details).not.toHaveAttribute("open");
    await first.toggle.click();
    await startNotebook(page);
    const title = (await page.locator("article section[data-subsection]").first().getAttribute("data-subsection"))!;
    await expect(page.getByLabel(`Your note on ${title}`)).toBeVisible();
    await write(first.box, first.status, "Monday, nine o'clock: it said I was late before I had begun.");
    expect(await seriousViolations(page), "the open note").toEqual([]);

    await page.reload();
    // Marked before anything is opened: the notebook wakes once the page is idle.
    await expect(first.details).toHaveAttribute("data-has-note", "");
    await expect(first.toggle).toContainText("written");
    await first.toggle.click();
    await expect(first.box).toHaveValue("Monday, nine o'clock: it said I was late before I had begun.");
    // The others are not marked.
    await expect(note(page, 1).details).not.toHaveAttribute("data-has-note");
    await context.close();
  });
}

test("the notebook's dialogs pass axe in both themes, at 390 px", async ({ browser }) => {
  for (const theme of ["light", "dark"] as const) {
    const { page, context } = await newMember(browser, { width: 390, height: 844 });
    await setTheme(page, theme);
    await page.goto(`/${(await firstChapter(page)).slug}`);
    await note(page).toggle.click();
    await expect(page.getByRole("dialog", { name: "Start your notebook" })).toBeVisible();
    await page.getByLabel("Notebook passphrase", { exact: true }).fill("password12");
    await expect(page.getByTestId("passphrase-strength")).toHaveText("Strength: Weak");
    expect(await seriousViolations(page), `${theme}: starting`).toEqual([]);
    await page.getByLabel("Notebook passphrase", { exact: true }).fill(PASSPHRASE);
    await page.getByLabel("Notebook passphrase again").fill(PASSPHRASE);
    await page.getByRole("button", { name: "Start my notebook" }).click();
    await expect(page.getByRole("dialog", { name: "Your recovery key" })).toBeVisible();
    expect(await seriousViolations(page), `${theme}: the recovery key`).toEqual([]);
    await context.close();
  }
});

test("a second device asks for the passphrase once, reads the note, and two devices editing at once keep both texts", async ({ browser }) => {
  const { code, page: phone, context: phoneContext } = await newMember(browser, { width: 390, height: 844 });
  const chapter = await firstChapter(phone);
  await phone.goto(`/${chapter.slug}`);
  const onPhone = note(phone);
  await onPhone.toggle.click();
  await startNotebook(phone);
  await write(onPhone.box, onPhone.status, "Written on the phone.");

  const { page: desk, context: deskContext } = await device(browser, code);
  await desk.goto(`/${chapter.slug}`);
  const onDesk = note(desk);
  await expect(onDesk.details).toHaveAttribute("data-has-note", "");
  await onDesk.toggle.click();
  await openNotebook(desk);
  await expect(onDesk.box).toHaveValue("Written on the phone.");
  // Asked once on this device: a reload opens it without asking, also when the Note is opened
  // while the page still looks for this device's key (the chapter's notes held until then).
  let opened!: () => void;
  const noteOpened = new Promise<void>((resolve) => (opened = resolve));
  await desk.route(/\/api\/notebook\/notes\?chapter=/, async (route) => {
    await noteOpened;
    await route.continue();
  });
  const asked = desk.waitForRequest(/\/api\/notebook\/notes\?chapter=/);
  await desk.reload();
  await asked;
  await onDesk.toggle.click();
  await expect(onDesk.details).toHaveAttribute("open", "");
  opened();
  await expect(onDesk.box).toHaveValue("Written on the phone.");
  await expect(desk.getByRole("dialog", { name: "Open your notebook" })).toHaveCount(0);
  await desk.unroute(/\/api\/notebook\/notes\?chapter=/);

  // The desk saves a new version; the phone, still at the old one, saves too: refused, and shown.
  await write(onDesk.box, onDesk.status, "Rewritten at the desk.");
  await onPhone.box.fill("Added on the phone, unaware.");
  const conflict = phone.getByRole("dialog", { name: "Two versions of this note" });
  await expect(conflict).toBeVisible({ timeout: 10_000 });
  await expect(conflict.getByTestId("conflict-mine")).toHaveText("Added on the phone, unaware.");
  await expect(conflict.getByTestId("conflict-theirs")).toHaveText("Rewritten at the desk.");
  expect(await seriousViolations(phone), "the conflict").toEqual([]);
  await conflict.getByRole("button", { name: "Keep both" }).click();
  await expect(onPhone.status).toHaveText("Saved", { timeout: 10_000 });
  await expect(onPhone.box).toHaveValue(/Added on the phone, unaware\.[\s\S]*Rewritten at the desk\./);

  // Nothing typed was dropped: the desk reads both after a reload.
  await desk.reload();
  await onDesk.toggle.click();
  await expect(onDesk.box).toHaveValue(/Added on the phone, unaware\.[\s\S]*Rewritten at the desk\./);
  await phoneContext.close();
  await deskContext.close();
});

test("offline, the note stays in the browser and is sent when the connection returns; a failing server's save is sent after a reload", async ({ browser }) => {
  const { code, page, context } = await newMember(browser);
  const chapter = await firstChapter(page);
  await page.goto(`/${chapter.slug}`);
  const first = note(page);
  await first.toggle.click();
  await startNotebook(page);
  await write(first.box, first.status, "Before the tunnel.");

  await context.setOffline(true);
  await first.box.fill("Written in the tunnel.");
  await expect(first.status).toHaveText("Not saved yet: will retry", { timeout: 10_000 });
  await context.setOffline(false);
  await expect(first.status).toHaveText("Saved", { timeout: 15_000 });

  // The server failing (503): kept in this browser, sealed; after a reload it is sent.
  await page.route("**/api/notebook/notes/*", (route) => (route.request().method() === "PUT" ? route.fulfill({ status: 503, json: { error: { code: "unavailable", message: "Down for a moment." } } }) : route.continue()));
  await first.box.fill("Written while the server was down.");
  await expect(first.status).toHaveText("Not saved yet: will retry", { timeout: 10_000 });
  // Kept sealed (never in the clear) until it is sent.
  const kept = await page.evaluate(() => localStorage.getItem("notebook-pending") ?? "");
  expect(kept).toContain("sealed");
  expect(kept).not.toContain("server was down");
  expect(await page.evaluate(() => localStorage.getItem("notebook-local"))).toBeNull();
  await page.unrouteAll({ behavior: "wait" });
  // (Leaving with it unsent asks first: accepted here.)
  page.once("dialog", (dialog) => void dialog.accept());
  await page.reload();
  await expect(first.details).toHaveAttribute("data-has-note", "");
  await first.toggle.click();
  await expect(first.box).toHaveValue("Written while the server was down.");
  await expect(first.status).toHaveText("Saved", { timeout: 15_000 });
  await expect.poll(() => page.evaluate(() => localStorage.getItem("notebook-pending"))).toBeNull();

  const { page: other, context: otherContext } = await device(browser, code);
  await other.goto(`/${chapter.slug}`);
  await note(other).toggle.click();
  await openNotebook(other);
  await expect(note(other).box).toHaveValue("Written while the server was down.");
  await otherContext.close();
  await context.close();
});

test("leaving the page with unsaved text asks first", async ({ browser }) => {
  const { page, context } = await newMember(browser);
  await page.goto(`/${(await firstChapter(page)).slug}`);
  const first = note(page);
  await first.toggle.click();
  await startNotebook(page);
  await page.route("**/api/notebook/notes/*", (route) => route.fulfill({ status: 503, json: { error: { code: "unavailable", message: "Down." } } }));
  await first.box.fill("Not sent yet.");
  await expect(first.status).toHaveText("Not saved yet: will retry", { timeout: 10_000 });
  const asked = page.waitForEvent("dialog");
  void page.goto("/about").catch(() => {});
  const dialog = await asked;
  expect(dialog.type()).toBe("beforeunload");
  await dialog.dismiss();
  await expect(first.box).toHaveValue("Not sent yet.");
  await context.close();
});

test("a forgotten passphrase is replaced with the recovery key; the operator resetting the password changes nothing in the notebook", async ({ browser }) => {
  const { code, page, context } = await newMember(browser, { width: 390, height: 844 });
  const chapter = await firstChapter(page);
  await page.goto(`/${chapter.slug}`);
  await note(page).toggle.click();
  const recoveryKey = await startNotebook(page);
  await write(note(page).box, note(page).status, "Kept through everything.");
  await context.close();

  // The operator resets the code's password: the member signs in with the new one.
  const admin = await browser.newPage();
  await adminLogin(admin);
  const reset = await admin.request.post(`/api/admin/access-codes/${code.login}/reset-password`, { data: {} });
  expect(reset.status(), await reset.text()).toBe(200);
  const { password } = (await reset.json()) as { password: string };
  await admin.context().close();

  // A new device, and the passphrase forgotten: the recovery key and a new passphrase.
  const { page: fresh, context: freshContext } = await device(browser, { login: code.login, password }, { width: 390, height: 844 });
  await fresh.goto(`/${chapter.slug}`);
  await note(fresh).toggle.click();
  const unlock = fresh.getByRole("dialog", { name: "Open your notebook" });
  await unlock.getByLabel("Notebook passphrase").fill("not what I chose");
  await unlock.getByRole("button", { name: "Open my notebook" }).click();
  await expect(unlock.getByRole("alert")).toHaveText("That passphrase does not open this notebook.");
  await unlock.getByRole("button", { name: "Use my recovery key" }).click();
  await unlock.getByLabel("Recovery key").fill(recoveryKey.toLowerCase());
  await unlock.getByLabel("New passphrase", { exact: true }).fill("a brand new passphrase");
  await unlock.getByLabel("New passphrase again").fill("a brand new passphrase");
  expect(await seriousViolations(fresh), "recovering").toEqual([]);
  await unlock.getByRole("button", { name: "Open and keep the new passphrase" }).click();
  await expect(unlock).toBeHidden();
  await expect(note(fresh).box).toHaveValue("Kept through everything.");
  await freshContext.close();

  // Another device: the new passphrase opens it, the old one no longer does.
  const { page: third, context: thirdContext } = await device(browser, { login: code.login, password });
  await third.goto(`/${chapter.slug}`);
  await note(third).toggle.click();
  const again = third.getByRole("dialog", { name: "Open your notebook" });
  await again.getByLabel("Notebook passphrase").fill(PASSPHRASE);
  await again.getByRole("button", { name: "Open my notebook" }).click();
  await expect(again.getByRole("alert")).toHaveText("That passphrase does not open this notebook.");
  await again.getByLabel("Notebook passphrase").fill("a brand new passphrase");
  await again.getByRole("button", { name: "Open my notebook" }).click();
  await expect(note(third).box).toHaveValue("Kept through everything.");
  await thirdContext.close();
});

test("with neither the passphrase nor the recovery key, the member starts a new notebook after a confirmation that names what is erased", async ({ browser }) => {
  const { code, page, context } = await newMember(browser, { width: 390, height: 844 });
  const chapter = await firstChapter(page);
  await page.goto(`/${chapter.slug}`);
  await note(page).toggle.click();
  await startNotebook(page);
  await write(note(page).box, note(page).status, "Lost with the passphrase.");
  await context.close();

  const { page: fresh, context: freshContext } = await device(browser, code, { width: 390, height: 844 });
  await fresh.goto(`/${chapter.slug}`);
  await expect(note(fresh).details).toHaveAttribute("data-has-note", "");
  await note(fresh).toggle.click();
  const unlock = fresh.getByRole("dialog", { name: "Open your notebook" });
  await unlock.getByRole("button", { name: "Start a new notebook" }).click();
  const restart = fresh.getByRole("alertdialog", { name: "Start a new notebook?" });
  await expect(restart).toContainText("the old one is erased with its 1 note");
  expect(await seriousViolations(fresh), "restarting").toEqual([]);
  // "Keep it" goes back to the passphrase.
  await restart.getByRole("button", { name: "Keep it" }).click();
  await unlock.getByRole("button", { name: "Start a new notebook" }).click();
  await restart.getByRole("button", { name: "Erase it and start a new notebook" }).click();
  await startNotebook(fresh, "another passphrase, chosen again");
  await expect(note(fresh).box).toHaveValue("");
  await expect(note(fresh).details).not.toHaveAttribute("data-has-note", "");
  const notes = (await (await fresh.request.get(`/api/notebook/notes?chapter=${chapter.slug}`)).json()) as { notes: unknown[] };
  expect(notes.notes).toEqual([]);
  await freshContext.close();
});

test("My notebook on /profile lists the notes in book order, searches them, downloads Markdown and JSON, and erases the notebook", async ({ browser }) => {
  const { page, context } = await newMember(browser);
  const chapter = await firstChapter(page);
  await page.goto(`/${chapter.slug}`);
  await note(page, 0).toggle.click();
  await startNotebook(page);
  await write(note(page, 0).box, note(page, 0).status, "The first passage: what the voice says at breakfast.");
  await note(page, 1).toggle.click();
  await write(note(page, 1).box, note(page, 1).status, "The second passage: a week of **field notes**.\n\n- <b>tags</b> stay text");
  const titles = await page.locator("article section[data-subsection]").evaluateAll((sections) => sections.map((s) => s.getAttribute("data-subsection")));

  await page.goto("/profile");
  await hydrated(page);
  const notebook = page.getByRole("region", { name: "My notebook" });
  const list = notebook.getByRole("list", { name: "My notes" });
  // (Its own items: a note may hold a list of its own.)
  const items = list.locator(":scope > li");
  await expect(items).toHaveCount(2);
  await expect(items.first()).toContainText(`01 ${titles[0]}`);
  await expect(items.first()).toContainText(chapter.title);
  await expect(items.nth(1)).toContainText(`02 ${titles[1]}`);
  await expect(list.getByRole("link", { name: `01 ${titles[0]}` })).toHaveAttribute("href", new RegExp(`^/${chapter.slug}#`));
  // A note's light markup rendered, its tags escaped, as a chapter's (issue 44: 7).
  const second = items.nth(1);
  await expect(second.locator("strong")).toHaveText("field notes");
  await expect(second).not.toContainText("**");
  await expect(second.getByRole("listitem")).toHaveText("<b>tags</b> stay text");
  await expect(second.locator("b")).toHaveCount(0);
  expect(await seriousViolations(page), "/profile's notebook").toEqual([]);

  await notebook.getByLabel("Search my notes").fill("field notes");
  await expect(items).toHaveCount(1);
  await expect(list).toContainText("a week of field notes");
  await notebook.getByLabel("Search my notes").fill("");

  const [markdown] = await Promise.all([page.waitForEvent("download"), notebook.getByRole("button", { name: "Download as Markdown" }).click()]);
  const text = await read(markdown);
  expect(text).toMatch(new RegExp(`## Operator · \\d\\d ${chapter.title}`));
  expect(text).toContain(`### 01 ${titles[0]}\n\nThe first passage: what the voice says at breakfast.`);
  expect(text).toContain(`### 02 ${titles[1]}\n\nThe second passage: a week of **field notes**.\n\n- <b>tags</b> stay text`);
  const [json] = await Promise.all([page.waitForEvent("download"), notebook.getByRole("button", { name: "Download as JSON" }).click()]);
  expect((JSON.parse(await read(json)) as { notes: Array<{ text: string }> }).notes.map((n) => n.text)).toEqual([
    "The first passage: what the voice says at breakfast.",
    "The second passage: a week of **field notes**.\n\n- <b>tags</b> stay text",
  ]);

  await notebook.getByRole("button", { name: "Erase my notebook" }).click();
  const erase = page.getByRole("alertdialog", { name: "Erase your notebook?" });
  await expect(erase).toContainText("2 notes");
  await erase.getByRole("button", { name: "Erase my notebook" }).click();
  await expect(notebook).toContainText("You have no notebook yet.");
  expect(await (await page.request.get("/api/notebook")).json()).toEqual({ notebook: null });
  await context.close();
});

test("after the code has ended, /resume downloads the notebook with the code, its password and the passphrase", async ({ browser }) => {
  const { code, page, context } = await newMember(browser, { width: 390, height: 844 });
  const chapter = await firstChapter(page);
  await page.goto(`/${chapter.slug}`);
  await note(page).toggle.click();
  await startNotebook(page);
  await write(note(page).box, note(page).status, "Mine to take away.");

  // The operator ends the code: the panel says the notebook is kept 30 days, with its count only.
  const admin = await browser.newPage();
  await adminLogin(admin);
  await admin.getByRole("tab", { name: "Access Codes" }).click();
  await admin.getByRole("button", { name: `Deactivate ${code.login}` }).first().click();
  const confirm = admin.getByRole("alertdialog", { name: "Deactivate this code?" });
  await expect(confirm).toContainText("Their notebook (1 note) is kept for 30 days");
  await expect(confirm).not.toContainText("Mine to take away");
  await confirm.getByRole("button", { name: "Deactivate" }).click();
  await expect(confirm).toBeHidden();
  await admin.context().close();

  await page.goto("/resume");
  await hydrated(page);
  await page.getByText("Download my notebook").click();
  await page.getByLabel("Access code of the notebook").fill(code.login);
  await page.getByLabel("Password of the notebook's code").fill(code.password);
  await page.getByRole("button", { name: "Get my notebook" }).click();
  await expect(page.getByText("Found: 1 note, encrypted.")).toBeVisible();
  await page.getByLabel("Notebook passphrase").fill("a wrong passphrase here");
  await page.getByRole("button", { name: "Open it and download" }).click();
  await expect(page.getByRole("alert")).toHaveText("That passphrase does not open this notebook.");
  await page.getByLabel("Notebook passphrase").fill(PASSPHRASE);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Open it and download" }).click()]);
  expect(await read(download)).toContain("Mine to take away.");
  expect(await seriousViolations(page), "/resume's download").toEqual([]);
  await context.close();
});

test("a reader not signed in keeps notes in this browser, told so; once signed in, the page offers to move them into the notebook", async ({ browser, page }) => {
  const chapter = await firstChapter(page);
  await page.goto(`/${chapter.slug}`);
  const first = note(page);
  await first.toggle.click();
  await expect(first.status).toHaveText("Kept in this browser only. Sign in to keep your notes in your encrypted notebook.");
  await first.box.fill("Written before I had a code.");
  await page.reload();
  await expect(first.details).toHaveAttribute("data-has-note", "");
  await first.toggle.click();
  await expect(first.box).toHaveValue("Written before I had a code.");
  // Nothing of it reached the server.
  expect(await page.evaluate(() => localStorage.getItem("notebook-local"))).toContain("Written before I had a code.");

  const { issueCode } = await import("./admin-fixtures.ts");
  const code = await issueCode(browser, { level: "Architect" });
  expect((await page.request.post("/api/auth/validate", { data: code })).status()).toBe(200);
  await page.reload();
  const offer = page.getByRole("region", { name: "Notes kept in this browser" });
  await expect(offer).toContainText("You wrote 1 note before signing in.");
  await offer.getByRole("button", { name: "Move them into my notebook" }).click();
  await startNotebook(page);
  await expect(offer).toBeHidden({ timeout: 10_000 });
  await expect.poll(() => page.evaluate(() => localStorage.getItem("notebook-local"))).toBeNull();
  await page.reload();
  await expect(first.details).toHaveAttribute("data-has-note", "");
  await first.toggle.click();
  await expect(first.box).toHaveValue("Written before I had a code.");
});

test("a member's chapter page with notes asks one more thing of the server (the chapter's notes) and wakes no more functions", async ({ browser }) => {
  const { page, context } = await newMember(browser);
  const chapter = await firstChapter(page);
  await page.goto(`/${chapter.slug}`);
  await note(page).toggle.click();
  await startNotebook(page);
  await write(note(page).box, note(page).status, "One note here.");

  const reached: string[] = [];
  page.on("response", (response) => {
    if (/fwd=/.test(response.headers()["cache-status"] ?? "")) reached.push(`${response.request().method()} ${new URL(response.url()).pathname}${new URL(response.url()).search}`);
  });
  await page.reload();
  await expect(note(page).box).toHaveValue("One note here.");
  await page.waitForLoadState("networkidle");
  const calls = reached.filter((call) => !call.startsWith("POST /api/reading/heartbeat"));
  expect(calls.sort()).toEqual(["GET /api/auth/session", `GET /api/notebook/notes?chapter=${chapter.slug}`]);
  await context.close();
});
