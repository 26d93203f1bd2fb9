/**
 * The publish status in the admin panel (issue 21: 2 and 3): a cache purge that failed is shown
 * with its tries and next try until it goes through, then as cleared; a search index left with the
 * old text by a failed build says so, with the time of the text it holds. The answers of
 * GET /api/admin/publish are stood in for (tests/api/cache-purge-jobs.test.ts and
 * tests/api/publish-status.test.ts check the server's), as only a browser shows the island.
 */
import { expect, test } from "./page-test.ts";
import { adminLogin } from "./admin-fixtures.ts";
import { hydrated } from "./reader-helpers.ts";

const AT = "2026-11-22T08:00:00.000Z";
const NEXT_TRY = "2026-11-22T08:16:00.000Z";

test("shows a failed cache purge and an outdated search index until they are put right", async ({ page }) => {
  await adminLogin(page);
  let retried = false;
  await page.route("**/api/admin/publish", (route) => {
    if (route.request().method() === "POST") {
      retried = true;
      return route.fulfill({ status: 202, json: { state: "publishing", lastPublishedAt: AT, error: null, pending: false } });
    }
    if (retried) {
      return route.fulfill({
        json: {
          state: "live",
          lastPublishedAt: AT,
          error: null,
          pending: false,
          cachePurge: { state: "done", since: null, attempts: 0, lastError: null, nextAttemptAt: null, doneAt: AT },
          searchIndex: { state: "current", asOf: AT },
        },
      });
    }
    return route.fulfill({
      json: {
        state: "failed",
        lastPublishedAt: AT,
        error: "The cached chapter pages could not be cleared (Cache purge API call returned an unexpected status code: 500).",
        pending: false,
        cachePurge: { state: "failed", since: AT, attempts: 3, lastError: "Cache purge API call returned an unexpected status code: 500", nextAttemptAt: NEXT_TRY, doneAt: null },
        searchIndex: { state: "outdated", asOf: AT },
      },
    });
  });
  await page.reload();
  await hydrated(page);
  const status = page.getByTestId("publish-status");
  await expect(status).toContainText("Publish failed");
  await expect(status).toContainText("could not be cleared");
  const purge = status.getByTestId("publish-purge");
  await expect(purge).toHaveAttribute("data-state", "failed");
  const nextTry = await page.evaluate((at) => new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }).format(new Date(at)), NEXT_TRY);
  await expect(purge).toHaveText(`Cached pages not cleared yet: tried 3 times, next try ${nextTry}.`);
  const index = status.getByTestId("publish-search-index");
  const asOf = await page.evaluate((at) => new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }).format(new Date(at)), AT);
  await expect(index).toContainText(`Search index out of date: it holds the open level's text as published ${asOf}`);
  await expect(index).toContainText("a search may still find words changed or withdrawn since");

  await status.getByRole("button", { name: "Retry Publish" }).click();
  await expect(status).toContainText("Site: Live", { timeout: 10_000 });
  await expect(purge).toHaveAttribute("data-state", "done");
  await expect(purge).toHaveText(`Cached pages cleared: ${asOf}`);
  await expect(index).toHaveCount(0);
});
