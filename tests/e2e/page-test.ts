/**
 * Playwright's `test`, with one guard for every end-to-end test: an uncaught script error in the
 * page (a thrown exception or an unhandled rejection) fails the test that caused it, whatever the
 * test itself checks. Console errors are not counted here: several tests make requests fail on
 * purpose, and the browser logs those.
 */
import { expect, test as base } from "@playwright/test";

export const test = base.extend<{ noPageErrors: void }>({
  noPageErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(`${page.url()}: ${error.message}`));
      await use();
      expect(errors, "uncaught errors in the page").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
