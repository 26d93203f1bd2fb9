/** End-to-end helpers for the members' notebook (issue 32): a subsection's Note, and the notebook's dialogs. */
import { expect, type Browser, type BrowserContext, type Locator, type Page } from "@playwright/test";
import { issueCode } from "./admin-fixtures.ts";

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
