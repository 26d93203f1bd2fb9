/**
 * End-to-end fixtures for the admin panel: the admin account global-setup created, signing a
 * browser in, and small data factories that go through the admin API (as the signed-in page).
 */
import fs from "node:fs";
import path from "node:path";
import { expect, type Browser, type Page } from "@playwright/test";
import type { Level } from "../../src/lib/levels.ts";
import { hydrated } from "./reader-helpers.ts";
import { E2E_DATA_DIR } from "./server.ts";

export interface AdminCredentials {
  email: string;
  password: string;
}

export function adminCredentials(): AdminCredentials {
  return JSON.parse(fs.readFileSync(path.join(E2E_DATA_DIR, "admin.json"), "utf8")) as AdminCredentials;
}

/** Signs the page's browser context in as the admin (through the API) and opens the panel. */
export async function adminLogin(page: Page): Promise<void> {
  const response = await page.request.post("/api/admin/login", { data: adminCredentials() });
  expect(response.status()).toBe(200);
  await openPanel(page);
}

/** Opens /admin and waits until the panel (not the loading line) shows. */
export async function openPanel(page: Page): Promise<void> {
  await page.goto("/admin");
  await hydrated(page);
  await expect(page.getByRole("heading", { name: "Admin Panel" })).toBeVisible();
}

let sequence = 0;
/** A name no other test uses, so tests never depend on each other's data. */
export function unique(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}${(++sequence).toString(36)}`;
}

export interface CreatedChapter {
  id: number;
  slug: string;
  title: string;
  level: Level;
  order: number;
}

/**
 * A chapter made through the admin API. Tests use the Mastermind level and high orders, so the
 * Operator reading order other suites rely on never changes.
 */
export async function createChapter(page: Page, fields: { title?: string; level?: Level; order?: number; content?: string } = {}): Promise<CreatedChapter> {
  const title = fields.title ?? unique("E2E Chapter");
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  const response = await page.request.post("/api/admin/chapters", {
    data: {
      slug,
      title,
      content: fields.content ?? `Body of ${title}. `.repeat(12),
      readingTime: 7,
      order: fields.order ?? 900 + sequence,
      level: fields.level ?? "Mastermind",
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as CreatedChapter;
}

export async function createSubsection(page: Page, chapterId: number, title: string, order: number): Promise<{ id: number; title: string }> {
  const response = await page.request.post("/api/admin/subsections", {
    data: { chapterId, title, content: `Body of ${title}.`, photo: null, photoAlt: null, order },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { id: number; title: string };
}

/**
 * Opens the panel on a level's chapter list. (Pressed again if the press came while the panel was
 * still settling after a load, on a busy machine.)
 */
export async function showLevel(page: Page, level: Level): Promise<void> {
  const tab = page.getByRole("tab", { name: new RegExp(`^${level} \\(`) });
  await expect(async () => {
    await tab.click();
    await expect(tab).toHaveAttribute("aria-selected", "true", { timeout: 1000 });
  }).toPass({ timeout: 10_000 });
}

/** A chapter's card in the list (a list item named by its title). */
export function chapterCard(page: Page, title: string) {
  return page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: title, exact: true }) });
}

/** The toasts' region. */
export const toast = (page: Page) => page.getByRole("region", { name: "Notifications (F8)" });

/** Reloads the panel and opens the Mastermind chapters, where the tests' chapters are made. */
export async function openChapters(page: Page): Promise<void> {
  await page.reload();
  await hydrated(page);
  await showLevel(page, "Mastermind");
}

/** Issues an access code through the admin API, in a browser context of its own; answers its login and password. */
export async function issueCode(browser: Browser, data: { level: Level; maxSessions?: number }): Promise<{ login: string; password: string }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await adminLogin(page);
  const response = await page.request.post("/api/admin/access-codes", { data });
  expect(response.status(), await response.text()).toBe(201);
  const code = (await response.json()) as { login: string; password: string };
  await context.close();
  return code;
}
