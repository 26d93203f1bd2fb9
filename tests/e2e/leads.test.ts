/**
 * Leads (issue 15) in the browser: the private result link offered on 'Scan Complete' and reopened
 * elsewhere; the admin's Webhooks tab (add, secret, test, delivery log, send again, pause) against a
 * local receiver; and the drop-off table and band filter of Assessment Submissions.
 */
import type { Page } from "@playwright/test";
import { adminLogin } from "./admin-fixtures.ts";
import { seriousViolations } from "./axe.ts";
import { expect, test } from "./page-test.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";
import { DELIVERY_HEADER, SIGNATURE_HEADER, verifySignature } from "../../src/server/leads/signature.ts";

async function takeScan(page: Page, name: string, email: string): Promise<void> {
  await page.goto("/assessment");
  for (let n = 1; n <= 15; n++) {
    await expect(page.getByTestId("progress-text")).toHaveText(`${n} of 15`);
    await page.getByRole("radio", { name: /^C\./ }).check();
    await page.getByRole("button", { name: /^(Next|Complete Scan)$/ }).click();
  }
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Get My Results" }).click();
  await expect(page.getByRole("heading", { name: "Scan Complete" })).toBeVisible();
}

test("Scan Complete offers a private link that reopens the same result, and nothing about the person, elsewhere", async ({ page, browser }) => {
  await takeScan(page, "Private Person", "private.person@example.com");
  const score = await page.getByTestId("total-score").textContent();
  const level = await page.getByTestId("level").textContent();
  const link = await page.getByTestId("result-link").inputValue();
  expect(link).toMatch(/\/assessment\/result#[A-Za-z0-9_-]{43}$/);
  expect(await seriousViolations(page)).toEqual([]);

  // Another browser, with nothing of the first one's.
  const other = await browser.newContext();
  const elsewhere = await other.newPage();
  const response = await elsewhere.goto(link);
  expect(response!.headers()["cache-control"]).toBe("private, no-store");
  expect(response!.headers()["x-robots-tag"]).toBe("noindex, nofollow");
  await expect(elsewhere.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex, nofollow");
  await expect(elsewhere.getByRole("heading", { name: "Your Result" })).toBeVisible();
  await expect(elsewhere.getByTestId("total-score")).toHaveText(score!);
  await expect(elsewhere.getByTestId("level")).toHaveText(level!);
  const text = await elsewhere.locator("body").innerText();
  expect(text).not.toContain("Private Person");
  expect(text).not.toContain("private.person@example.com");
  expect(await seriousViolations(elsewhere)).toEqual([]);

  await elsewhere.goto(link.replace(/#.*/, `#${"A".repeat(43)}`));
  await expect(elsewhere.getByRole("heading", { name: "Result not found" })).toBeVisible();
  await other.close();
});

test.describe("webhooks in the admin panel", () => {
  let receiver: Receiver;
  test.beforeAll(async () => {
    receiver = await startReceiver();
  });
  test.afterAll(() => receiver?.close());

  test("adds a webhook, shows its secret, sends a signed test, and logs deliveries with Send Again", async ({ page }) => {
    await adminLogin(page);
    await page.getByRole("tab", { name: "Webhooks" }).click();
    // The panel explains itself (issue 22: 6): the privacy policy reminder, and how a receiver checks a delivery.
    await expect(page.getByTestId("webhook-privacy-note")).toContainText("make sure it names the service that receives them");
    await page.getByText("How the receiver can check that a delivery came from this site").click();
    await expect(page.getByText(/The signature is an HMAC-SHA256/)).toBeVisible();
    await page.getByLabel("Webhook address").fill("ftp://example.com");
    await page.getByRole("button", { name: "Add Webhook" }).click();
    // The field's error is a sentence, without a status or a field name.
    await expect(page.getByText("Use an https:// address.", { exact: true })).toBeVisible();
    await expect(page.getByLabel("Webhook address")).toHaveAttribute("aria-invalid", "true");

    await page.getByLabel("Webhook address").fill(receiver.url);
    await page.getByRole("button", { name: "Add Webhook" }).click();
    const card = page.getByRole("list", { name: "Webhooks" }).getByRole("listitem").filter({ hasText: receiver.url });
    await expect(card).toBeVisible();
    await card.getByRole("button", { name: "Show" }).click();
    const secret = (await card.getByTestId("webhook-secret").textContent())!;
    expect(secret).toMatch(/^whsec_/);

    await card.getByRole("button", { name: `Send a test to ${receiver.url}` }).click();
    await expect.poll(() => receiver.received.length).toBe(1);
    const sample = receiver.received[0]!;
    expect(verifySignature(secret, sample.headers[SIGNATURE_HEADER] as string, sample.headers[DELIVERY_HEADER] as string, sample.body)).toBe(true);
    const log = page.getByRole("table", { name: "Delivery log" });
    await expect(log.getByTestId("delivery-row").first()).toContainText("Delivered");

    // The receiver fails: Send Again of the test shows the failure once, with no retries queued.
    receiver.otherwise = 500;
    await log.getByRole("button", { name: /^Send Again: delivery \d+$/ }).first().click();
    await expect.poll(() => receiver.received.length).toBe(2);
    await expect(log.getByTestId("delivery-row").first()).toContainText("Failed");
    await expect(log.getByTestId("delivery-row").first()).toContainText("The receiver answered 500");
    await expect(log.getByTestId("delivery-row").first()).not.toContainText("next");
    expect(await seriousViolations(page)).toEqual([]);

    // A lead that fails is retried.
    const visitor = await page.context().newPage();
    await takeScan(visitor, "Retry Person", "retry.person@example.com");
    await visitor.close();
    await expect.poll(() => receiver.received.length).toBe(3);
    await page.getByRole("button", { name: "Refresh" }).click();
    await expect(log.getByTestId("delivery-row").first()).toContainText("Retry Person");
    await expect(log.getByTestId("delivery-row").first()).toContainText("Retrying");

    // Pausing stops the delivery waiting for its retry at once, and says so; no tests while paused.
    await card.getByRole("button", { name: "Pause" }).click();
    await expect(card).toContainText("Paused: nothing is sent to it");
    await expect(card.getByRole("button", { name: `Send a test to ${receiver.url}` })).toBeDisabled();
    await page.getByRole("button", { name: "Refresh" }).click();
    await expect(log.getByTestId("delivery-row").first()).toContainText("Failed");
    await expect(log.getByTestId("delivery-row").first()).toContainText("Stopped: the webhook was paused.");
    expect(receiver.received).toHaveLength(3);

    // Removing it (other tests of this run must not feed a receiver that is gone).
    await card.getByRole("button", { name: `Remove ${receiver.url}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Remove" }).click();
    await expect(card).toHaveCount(0);
  });

  test("Assessment Submissions shows drop-off per question and filters by band", async ({ page }) => {
    await takeScan(page, "Band Person", "band.person@example.com");
    await adminLogin(page);
    await page.getByRole("tab", { name: /^Assessment Submissions/ }).click();
    const dropOff = page.getByRole("table", { name: "Drop-off per question" });
    await expect(dropOff.getByRole("row", { name: /^Question 1 / })).toBeVisible();
    await expect(dropOff.getByRole("row", { name: /^Name and email / })).toBeVisible();
    await expect(page.getByRole("table", { name: "Completions per band by week" }).getByRole("columnheader", { name: "Self-Authored" })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    const level = page.getByLabel("Result band");
    // The scan above answered C throughout; its band is the one the list keeps when filtered to it.
    const submissions = page.getByRole("list", { name: "Submissions" });
    const card = submissions.getByRole("listitem").filter({ hasText: "Band Person" }).first();
    const bandName = (await card.locator("p").nth(2).textContent())!.trim();
    await level.selectOption(bandName);
    await expect(submissions.getByRole("listitem").filter({ hasText: "Band Person" }).first()).toBeVisible();
    await expect(page.getByRole("link", { name: "Download CSV" })).toHaveAttribute("href", new RegExp(`band=${encodeURIComponent(bandName).replace(/%20/g, "\\+")}`));
    const other = (await level.locator("option").allTextContents()).map((t) => t.replace(/ \(.*/, "")).find((t) => t !== bandName && t !== "Every scan")!;
    await level.selectOption(other);
    await expect(submissions.getByRole("listitem").filter({ hasText: "Band Person" })).toHaveCount(0);
  });
});
