/** End-to-end helpers for the members' notebook (issue 32): a subsection's Note, and the notebook's dialogs. */
import fs from "node:fs";
import { expect, type APIRequestContext, type Browser, type BrowserContext, type Locator, type Page } from "@playwright/test";
import { adminCredentials, issueCode } from "./admin-fixtures.ts";
import { enterCode, hydrated } from "./reader-helpers.ts";

export const PASSPHRASE = "a passphrase only I know";

/** The Note of the `index`th subsection of the page: its disclosure, toggle, box and status line. */
export function note(page: Page, index = 0) {
  const details = page.locator("article details.note").nth(index);
  return {
    details,
    toggle: details.locator("summary"),
    box: details.locator("textarea"),
    status: details.locator(".note-status"),
  };
}

/** A new member (an Architect code of their own, room for several devices) and their first browser. */
export async function newMember(browser: Browser, viewport = { width: 1280, height: 800 }): Promise<{ code: { login: string; password: string }; context: BrowserContext; page: Page }> {
  const code = await issueCode(browser, { level: "Architect", maxSessions: 5 });
  const { context, page } = await device(browser, code, viewport);
  return { code, context, page };
}

/** Another device of the member: a browser context of its own, signed in with the code. */
export async function device(browser: Browser, code: { login: string; password: string }, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const signedIn = await page.request.post("/api/auth/validate", { data: code });
  expect(signedIn.status(), await signedIn.text()).toBe(200);
  return { context, page };
}

/** The first Operator chapter (every member may read it). */
export async function firstChapter(page: Page): Promise<{ slug: string; title: string }> {
  const all = (await (await page.request.get("/api/chapters")).json()) as Array<{ slug: string; title: string; level: string | null; order: number }>;
  return all.filter((c) => (c.level ?? "Operator") === "Operator").sort((a, b) => a.order - b.order)[0]!;
}

/** Starts the member's notebook from the dialog a first Note opens; answers the recovery key. */
export async function startNotebook(page: Page, passphrase = PASSPHRASE): Promise<string> {
  const setup = page.getByRole("dialog", { name: "Start your notebook" });
  await expect(setup).toBeVisible();
  await setup.getByLabel("Notebook passphrase", { exact: true }).fill(passphrase);
  await setup.getByLabel("Notebook passphrase again").fill(passphrase);
  await setup.getByRole("button", { name: "Start my notebook" }).click();
  const recovery = page.getByRole("dialog", { name: "Your recovery key" });
  await expect(recovery).toBeVisible();
  const recoveryKey = (await recovery.getByTestId("recovery-key").textContent())!.trim();
  await recovery.getByLabel("Type the last four characters of your recovery key").fill(recoveryKey.slice(-4));
  await recovery.getByRole("button", { name: "I have kept it" }).click();
  await expect(recovery).toBeHidden();
  return recoveryKey;
}

/** Opens the notebook on this device with its passphrase, from the dialog a Note opens. */
export async function openNotebook(page: Page, passphrase = PASSPHRASE): Promise<void> {
  const unlock = page.getByRole("dialog", { name: "Open your notebook" });
  await expect(unlock).toBeVisible();
  await unlock.getByLabel("Notebook passphrase").fill(passphrase);
  await unlock.getByRole("button", { name: "Open my notebook" }).click();
  await expect(unlock).toBeHidden();
}

/** Types `text` into a Note's box (after what is there) and waits until it is saved. */
export async function write(box: Locator, status: Locator, text: string): Promise<void> {
  await box.fill(text);
  await expect(status).toHaveText("Saved", { timeout: 10_000 });
}

/** The admin API, signed in (no panel loaded): for ending, resetting or erasing what a test needs. */
export async function adminApi(browser: Browser): Promise<{ request: APIRequestContext; close: () => Promise<void> }> {
  const context = await browser.newContext();
  const signedIn = await context.request.post("/api/admin/login", { data: adminCredentials() });
  expect(signedIn.status(), await signedIn.text()).toBe(200);
  return { request: context.request, close: () => context.close() };
}

/** A new access code, through the admin API. */
export async function newCode(browser: Browser, data: { level: "Architect" | "Mastermind"; maxSessions?: number } = { level: "Architect", maxSessions: 5 }) {
  const admin = await adminApi(browser);
  const issued = await admin.request.post("/api/admin/access-codes", { data });
  expect(issued.status(), await issued.text()).toBe(201);
  const code = (await issued.json()) as { login: string; password: string };
  await admin.close();
  return code;
}

/** Signs in at /resume through its form, as a member does (the page leaves for /resume). */
export async function signInAtResume(page: Page, code: { login: string; password: string }): Promise<void> {
  await page.goto("/resume");
  await hydrated(page);
  await enterCode(page, code);
}

/** The Markdown of the member's notebook as /profile downloads it (opened on that page, with the passphrase if this device has not the key). */
export async function notebookDownload(page: Page, passphrase = PASSPHRASE): Promise<string> {
  await page.goto("/profile");
  await hydrated(page);
  const notebook = page.getByRole("region", { name: "My notebook" });
  const open = notebook.getByRole("button", { name: "Open my notebook" });
  const download = notebook.getByRole("button", { name: "Download as Markdown" });
  await expect(open.or(download)).toBeVisible();
  if (await open.isVisible()) {
    await open.click();
    await openNotebook(page, passphrase);
  }
  const [file] = await Promise.all([page.waitForEvent("download"), download.click()]);
  return fs.readFileSync((await file.path())!, "utf8");
}

/**
 * Everything the browser context keeps that a page can read, as one string: cookies, every
 * origin page's localStorage and sessionStorage, every IndexedDB database (every store's values),
 * and Cache Storage (every cached body).
 */
export async function everyStorage(page: Page): Promise<string> {
  const inPage = await page.evaluate(async () => {
    const found: unknown[] = [Object.entries(localStorage), Object.entries(sessionStorage)];
    for (const { name, version } of await indexedDB.databases()) {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(name!, version);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      for (const store of db.objectStoreNames) {
        const values = await new Promise<unknown[]>((resolve, reject) => {
          const request = db.transaction(store).objectStore(store).getAll();
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
        found.push(name, store, values.map((value) => (value instanceof CryptoKey ? `CryptoKey(${value.type})` : value)));
      }
      db.close();
    }
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) found.push(request.url, await (await cache.match(request))!.text());
    }
    return JSON.stringify(found);
  });
  return `${JSON.stringify(await page.context().cookies())}${inPage}`;
}

/** The IndexedDB databases of the page's origin, by name. */
export const databases = (page: Page) => page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name));
