/**
 * The publish status in the admin panel (issue 21: 2 and 3): a cache purge that failed is shown
 * with its tries and next try until it goes through, then as cleared; a search index left with the
 * old text by a failed build says so, with the time of the text it holds. The answers of
 * GET /api/admin/publish are stood in for (tests/api/cache-purge-jobs.test.ts and
 * tests/api/publish-status.test.ts check the server's), as only a browser shows the island.
 */
import { expect, test } from "./page-test.ts";
import { adminLogin, chapterCard, createChapter, openChapters, toast } from "./admin-fixtures.ts";
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
  await expect(index).toContainText(`Search index out of date: it holds the open level's text as published ${asOf}.`);
  await expect(index).toContainText("Words added since are not found by the search box yet.");

  await status.getByRole("button", { name: "Retry Publish" }).click();
  await expect(status).toContainText("Site: Live", { timeout: 10_000 });
  await expect(purge).toHaveAttribute("data-state", "done");
  await expect(purge).toHaveText(`Cached pages cleared: ${asOf}`);
  await expect(index).toHaveCount(0);
});

test("a save that withdraws open text while no build will replace the search files says, in its toast and the status, that the old words stay public there", async ({ page }) => {
  await adminLogin(page);
  const chapter = await createChapter(page);
  let saved = false;
  const status = (exposed: boolean) => ({
    state: exposed ? "failed" : "live",
    lastPublishedAt: AT,
    error: exposed ? "The site build failed: astro build exited with code 1." : null,
    pending: exposed,
    cachePurge: { state: "done", since: null, attempts: 0, lastError: null, nextAttemptAt: null, doneAt: AT },
    searchIndex: exposed ? { state: "outdated", asOf: AT, withdrawn: 1, exposed: true } : { state: "current", asOf: AT, withdrawn: 0, exposed: false },
  });
  // The last build failed: the saved edit's old words stay in the search files.
  await page.route("**/api/admin/publish", (route) => route.fulfill({ json: status(saved) }));
  await page.route(`**/api/admin/chapters/${chapter.id}`, async (route) => {
    if (route.request().method() === "PUT") saved = true;
    await route.continue();
  });
  await openChapters(page);
  const card = chapterCard(page, chapter.title);
  await card.getByRole("button", { name: `Edit ${chapter.title}` }).click();
  const edit = page.getByRole("dialog", { name: "Edit Chapter" });
  await edit.getByLabel("Title").fill(`${chapter.title} Revised`);
  await edit.getByRole("button", { name: "Save Changes" }).click();
  await expect(toast(page)).toContainText(
    "Chapter updated successfully. The words it replaced or removed stay public in the site's search files until a build is live: see the publish status.",
  );
  const index = page.getByTestId("publish-status").getByTestId("publish-search-index");
  await expect(index).toHaveAttribute("data-exposed", "true");
  await expect(index).toContainText(
    "Withdrawn words are still public: the site's search files hold the earlier text of 1 chapter until a build is live. The search box does not show it, but anyone who asks for those files can read it.",
  );

  // A save while nothing withdrawn is exposed says only what SPEC.md says.
  saved = false;
  await page.unroute("**/api/admin/publish");
  await page.route("**/api/admin/publish", (route) => route.fulfill({ json: status(false) }));
  await openChapters(page);
  await chapterCard(page, `${chapter.title} Revised`).getByRole("button", { name: `Edit ${chapter.title} Revised` }).click();
  await edit.getByLabel("Title").fill(chapter.title);
  await edit.getByRole("button", { name: "Save Changes" }).click();
  await expect(toast(page)).toContainText("Chapter updated successfully");
  await expect(toast(page)).not.toContainText("search files");
});
