/**
 * The scan's completion is a mutation, and mutations are never retried (SPEC.md section 9): a 503
 * on 'Get My Results' sends one request, then shows the spec's error (issue 21, item 9).
 */
import type { Page } from "@playwright/test";
import { expect, test } from "./page-test.ts";

const progress = (page: Page) => page.getByTestId("progress-text");
const toast = (page: Page, title: string) =>
  page.getByRole("region", { name: "Notifications (F8)" }).locator("[role=status], [role=alert]").filter({ hasText: title });

test("a 503 on completion sends one request and shows the spec's error", async ({ page }) => {
  const created = page.waitForResponse((r) => r.url().endsWith("/api/assessment/session") && r.request().method() === "POST");
  await page.goto("/assessment");
  expect((await created).status()).toBe(201);
  for (let n = 1; n <= 15; n++) {
    await expect(progress(page)).toHaveText(`${n} of 15`);
    const saved = page.waitForResponse((r) => r.url().endsWith("/api/assessment/response"));
    await page.getByRole("radio", { name: /^B\./ }).check();
    await page.getByRole("button", { name: /^(Next|Complete Scan)$/ }).click();
    expect((await saved).status()).toBe(200);
  }
  await expect(page.getByRole("heading", { name: "One Final Step" })).toBeVisible();

  const completions: string[] = [];
  await page.route("**/api/assessment/session/*/complete", (route) => {
    completions.push(route.request().method());
    return route.fulfill({
      status: 503,
      contentType: "application/json",
      body: '{"error":{"code":"database_unavailable","message":"The database is busy; try again in a moment."}}',
    });
  });
  await page.getByLabel("Name").fill("Ada Lovelace");
  await page.getByLabel("Email").fill("ada@example.com");
  await page.getByRole("button", { name: "Get My Results" }).click();

  await expect(toast(page, "Error")).toContainText("Failed to complete assessment. Please try again.");
  await expect(page.getByRole("heading", { name: "One Final Step" })).toBeHidden();
  await expect(progress(page)).toHaveText("15 of 15");
  await page.waitForTimeout(2500); // longer than any retry would wait (0.5 s, then 1.5 s)
  expect(completions).toEqual(["POST"]);
  await expect(page.getByRole("heading", { name: "Scan Complete" })).toHaveCount(0);
});
