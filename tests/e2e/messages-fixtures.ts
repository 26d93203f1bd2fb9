/** End-to-end helpers for the direct line (issue 43): the panel's Messages tab with its key open, a member with a notebook, a message sent. */
import { expect, type Browser, type Page } from "@playwright/test";
import { adminLogin } from "./admin-fixtures.ts";
import { device, firstChapter, newCode, note, startNotebook } from "./notebook-fixtures.ts";

export const OPERATOR_PASSPHRASE = "the operator's own long passphrase";

export async function setTheme(page: Page, theme: "light" | "dark") {
  await page.addInitScript((value) => localStorage.setItem("book-theme", value), theme);
}

/** The admin panel's Messages tab, its key made (the first time on this server) or opened on this device. */
export async function messagesTab(browser: Browser, viewport = { width: 1280, height: 800 }, baseURL?: string): Promise<Page> {
  const context = await browser.newContext({ viewport, ...(baseURL ? { baseURL } : {}) });
  const page = await context.newPage();
  await adminLogin(page);
  await page.getByRole("tab", { name: /^Messages/ }).click();
  const make = page.getByRole("button", { name: "Make the messaging key" });
  const open = page.getByRole("button", { name: "Open the messages" });
  const inbox = page.getByRole("button", { name: "Refresh" });
  await expect(make.or(open).or(inbox)).toBeVisible();
  if (await make.isVisible()) {
    await page.getByLabel("Messaging passphrase", { exact: true }).fill(OPERATOR_PASSPHRASE);
    await page.getByLabel("Messaging passphrase again").fill(OPERATOR_PASSPHRASE);
    await make.click();
    const recovery = page.getByRole("dialog", { name: "The messaging key's recovery key" });
    const key = (await recovery.getByTestId("recovery-key").textContent())!.trim();
    await recovery.getByLabel("Type the last four characters of your recovery key").fill(key.slice(-4));
    await recovery.getByRole("button", { name: "I have kept it" }).click();
  } else if (await open.isVisible()) {
    await page.getByLabel("Messaging passphrase").fill(OPERATOR_PASSPHRASE);
    await open.click();
  }
  await expect(inbox).toBeVisible();
  return page;
}

/** A member (an Architect code) on `viewport`, their notebook started on a chapter page. */
export async function member(browser: Browser, viewport: { width: number; height: number }, theme: "light" | "dark") {
  const code = await newCode(browser, { level: "Architect", maxSessions: 5 });
  const { context, page } = await device(browser, code, viewport);
  await setTheme(page, theme);
  const chapter = await firstChapter(page);
  await page.goto(`/${chapter.slug}`);
  await note(page).toggle.click();
  await startNotebook(page);
  return { code, context, page, chapter };
}

/** Sends `text` from the member's Messages page. */
export async function sendFromMessages(page: Page, text: string) {
  await page.getByLabel("Your message").fill(text);
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("list", { name: "Messages" }).getByRole("listitem").last()).toContainText(text);
}
