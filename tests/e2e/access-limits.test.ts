/**
 * An access code's end date and session cap in the admin panel (issue 14: 6): set when issuing a
 * code, shown in the list with the sessions open now, changed in the code's settings, and every
 * session of a code ended on demand.
 */
import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./page-test.ts";
import { adminLogin, unique } from "./admin-fixtures.ts";
import { hydrated } from "./reader-helpers.ts";

const toast = (page: Page) => page.getByRole("region", { name: "Notifications (F8)" });

/** YYYY-MM-DD of the day `days` from today, in the page's own calendar. */
const dayFromToday = (page: Page, days: number) =>
  page.evaluate((n) => {
    const day = new Date();
    day.setDate(day.getDate() + n);
    return `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, "0")}-${String(day.getDate()).padStart(2, "0")}`;
  }, days);

/** A reader of their own signs in with the code; answers their browser context. */
async function readerSignsIn(browser: Browser, login: string, password: string) {
  const reader = await browser.newContext();
  const response = await reader.request.post("/api/auth/validate", { data: { login, password } });
  expect(response.status(), await response.text()).toBe(200);
  return reader;
}

const authenticated = async (reader: Awaited<ReturnType<typeof readerSignsIn>>) =>
  ((await (await reader.request.get("/api/auth/session")).json()) as { authenticated: boolean }).authenticated;

test("issue a code with an end date and a session cap; change both; end all its sessions", async ({ page, browser }) => {
  await adminLogin(page);
  await page.getByRole("tab", { name: "Access Codes" }).click();
  const issueForm = page.locator("form").filter({ has: page.getByRole("button", { name: "Issue Code" }) });
  const login = unique("Limited").replace(/\s+/g, "-");

  // A day already past and a cap of 0 are refused beside their fields, before anything is sent.
  await issueForm.getByLabel("Login (optional)").fill(login);
  await issueForm.getByLabel("Ends after (optional)").fill(await dayFromToday(page, -1));
  await issueForm.getByLabel("Sessions at once").fill("0");
  await page.getByRole("button", { name: "Issue Code" }).click();
  await expect(issueForm.getByText("End date must be in the future")).toBeVisible();
  await expect(issueForm.getByText("Session cap must be at least 1")).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: login })).toHaveCount(0);

  const lastDay = await dayFromToday(page, 30);
  await issueForm.getByLabel("Ends after (optional)").fill(lastDay);
  await issueForm.getByLabel("Sessions at once").fill("2");
  await page.getByRole("button", { name: "Issue Code" }).click();
  await expect(toast(page)).toContainText("Access code issued for Architect");
  const password = (await page.getByTestId("issued-password").textContent())!;
  const row = page.getByRole("row").filter({ hasText: login });
  const shownDay = await page.evaluate((day) => new Intl.DateTimeFormat(undefined, { dateStyle: "medium" }).format(new Date(`${day}T12:00:00`)), lastDay);
  await expect(row).toContainText(shownDay);
  await expect(row.getByTestId("code-sessions")).toHaveText("0 of 2");
  await expect(row.getByRole("button", { name: `End Sessions of ${login}` })).toBeDisabled();

  // Three devices sign in: the first one's session ends, two stay open.
  const readers = [];
  for (let device = 0; device < 3; device++) readers.push(await readerSignsIn(browser, login, password));
  expect(await Promise.all(readers.map(authenticated))).toEqual([false, true, true]);
  await page.reload();
  await hydrated(page);
  await page.getByRole("tab", { name: "Access Codes" }).click();
  await expect(row.getByTestId("code-sessions")).toHaveText("2 of 2");
  await expect(row).not.toContainText("Never");

  // Settings: no end date, one session at once (the older of the two ends at once).
  await row.getByRole("button", { name: `Settings of ${login}` }).click();
  const dialog = page.getByRole("dialog", { name: `Settings of ${login}` });
  await expect(dialog.getByLabel("Ends after (optional)")).toHaveValue(lastDay);
  await expect(dialog.getByLabel("Sessions at once")).toHaveValue("2");
  await dialog.getByLabel("Sessions at once").fill("101");
  await dialog.getByRole("button", { name: "Save Settings" }).click();
  await expect(dialog.getByText("Session cap must be at most 100")).toBeVisible();
  await dialog.getByLabel("Sessions at once").fill("1");
  await dialog.getByLabel("Ends after (optional)").fill("");
  await dialog.getByRole("button", { name: "Save Settings" }).click();
  await expect(toast(page)).toContainText(`Settings of ${login} saved`);
  await expect(dialog).toHaveCount(0);
  await expect(row.getByTestId("code-sessions")).toHaveText("1 of 1");
  await expect(row.getByRole("cell", { name: "No end date", exact: true })).toBeVisible();
  expect(await Promise.all(readers.map(authenticated))).toEqual([false, false, true]);

  // End all sessions: the last reader is signed out; the code still lets them back in.
  await row.getByRole("button", { name: `End Sessions of ${login}` }).click();
  await page.getByRole("alertdialog", { name: "End all sessions?" }).getByRole("button", { name: "End Sessions" }).click();
  await expect(toast(page)).toContainText(`Ended 1 session of ${login}`);
  await expect(row.getByTestId("code-sessions")).toHaveText("0 of 1");
  expect(await authenticated(readers[2]!)).toBe(false);
  const back = await readerSignsIn(browser, login, password);
  expect(await authenticated(back)).toBe(true);
  for (const reader of [...readers, back]) await reader.close();
});
