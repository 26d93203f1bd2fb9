/**
 * The Access Codes tab on a phone and on a desk (issue 22, point 7): the level choice offers the
 * locked levels only; at 390 px the codes are a list that needs no sideways scrolling and shows
 * every code's login, level, status and actions; at 1280 px they are the table as before. axe finds
 * no serious violation on the tab at either width, in either theme.
 */
import type { Page } from "@playwright/test";
import { seriousViolations } from "./axe.ts";
import { expect, test } from "./page-test.ts";
import { adminLogin, unique } from "./admin-fixtures.ts";

interface Code {
  login: string;
  level: string;
  isActive: boolean;
  expired: boolean;
}

const statusOf = (code: Code) => (!code.isActive ? "Inactive" : code.expired ? "Expired" : "Active");

async function openCodesTab(page: Page) {
  await adminLogin(page);
  await page.getByRole("tab", { name: "Access Codes" }).click();
  await expect(page.getByRole("heading", { name: /^Access codes \(\d+\)$/ })).toBeVisible();
}

async function allCodes(page: Page): Promise<Code[]> {
  return (await (await page.request.get("/api/admin/access-codes")).json()) as Code[];
}

/** Issues a code of `level` with a long login through the form, and closes what it shows. */
async function issue(page: Page, level: "Architect" | "Mastermind") {
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Issue Code" }) });
  const login = `${unique("Phone").replace(/\s+/g, "-")}-with-a-rather-long-login`;
  await form.getByRole("combobox", { name: "Level", exact: true }).selectOption(level);
  await form.getByLabel("Login (optional)").fill(login);
  await page.getByRole("button", { name: "Issue Code" }).click();
  await expect(page.getByTestId("issued-code")).toContainText(`New ${level} access code`);
  await page.getByRole("button", { name: "Done" }).click();
  return login;
}

test("the level choice offers only the locked levels", async ({ page }) => {
  await openCodesTab(page);
  const level = page.getByRole("combobox", { name: "Level", exact: true });
  await expect(level.locator("option")).toHaveText(["Architect", "Mastermind"]);
  await expect(level).toHaveValue("Architect");
});

test("at 390 px the codes are a list with no sideways scrolling, showing each code's login, level, status and actions", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openCodesTab(page);
  const login = await issue(page, "Mastermind");
  const codes = await allCodes(page);
  // global-setup issued an Operator code before codes were for locked levels only: still listed.
  expect(codes.some((code) => code.level === "Operator")).toBe(true);

  await expect(page.getByRole("table")).toBeHidden();
  const list = page.getByTestId("access-code-list");
  await expect(list).toBeVisible();
  await expect(list.getByRole("listitem")).toHaveCount(codes.length);
  for (const code of codes) {
    const item = list.getByRole("listitem").filter({ has: page.getByRole("heading", { name: code.login, exact: true }) });
    await expect(item, code.login).toHaveCount(1);
    await expect(item.getByRole("definition").nth(0)).toHaveText(code.level);
    await expect(item.getByRole("definition").nth(1)).toHaveText(statusOf(code));
    for (const action of [code.isActive ? "Deactivate" : "Reactivate", "Reset password of", "Settings of", "End Sessions of"]) {
      const button = item.getByRole("button", { name: `${action} ${code.login}`, exact: true });
      await expect(button, `${action} ${code.login}`).toBeVisible();
      const box = (await button.boundingBox())!;
      expect(box.x, `${action} ${code.login}`).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, `${action} ${code.login}`).toBeLessThanOrEqual(390);
    }
  }
  await expect(list.getByRole("heading", { name: login, exact: true })).toBeVisible();

  // Nothing on the tab scrolls sideways: not the page, not any element of it.
  const overflowing = await page.evaluate(() => {
    const out: string[] = [];
    const root = document.scrollingElement!;
    if (root.scrollWidth > root.clientWidth) out.push(`document ${root.scrollWidth} > ${root.clientWidth}`);
    for (const element of document.querySelectorAll<HTMLElement>("main *, [role='tabpanel'] *")) {
      const style = getComputedStyle(element);
      if (style.display === "none" || !["auto", "scroll"].includes(style.overflowX)) continue;
      if (element.scrollWidth > element.clientWidth) out.push(`${element.tagName}.${element.className} ${element.scrollWidth} > ${element.clientWidth}`);
    }
    return out;
  });
  expect(overflowing).toEqual([]);
  for (const item of await list.getByRole("listitem").all()) {
    const [scrollWidth, clientWidth] = await item.evaluate((element) => [element.scrollWidth, element.clientWidth]);
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
  }
});

test("at 1280 px the codes are the table as before", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openCodesTab(page);
  const login = await issue(page, "Architect");
  const codes = await allCodes(page);

  await expect(page.getByTestId("access-code-list")).toBeHidden();
  const table = page.getByRole("table");
  await expect(table).toBeVisible();
  await expect(table.getByRole("columnheader")).toHaveText(["Login", "Level", "Status", "Ends after", "Sessions", "Last used", "Actions"]);
  await expect(table.getByRole("row")).toHaveCount(codes.length + 1);
  const row = table.getByRole("row").filter({ hasText: login });
  await expect(row.getByRole("cell")).toHaveText([login, "Architect", "Active", "No end date", "0 of 3", "Never", /Deactivate.*Reset Password.*Settings.*End Sessions/]);
  await expect(row.getByRole("button", { name: `End Sessions of ${login}` })).toBeDisabled();
});

for (const theme of ["dark", "light"] as const) {
  test(`axe finds no serious violation on the tab at 390 and 1280 px, ${theme} theme`, async ({ page }) => {
    test.setTimeout(60_000);
    await page.addInitScript((value) => localStorage.setItem("book-theme", value), theme);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 844 });
      await openCodesTab(page);
      expect(await seriousViolations(page), `${width} px`).toEqual([]);
    }
  });
}
