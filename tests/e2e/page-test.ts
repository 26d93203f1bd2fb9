/**
 * Playwright's `test`, with one guard for every end-to-end test: an uncaught script error in the
 * page (a thrown exception or an unhandled rejection) fails the test that caused it, whatever the
 * test itself checks. Console errors are not counted here: several tests make requests fail on
 * purpose, and the browser logs those.
 */
import { createHash } from "node:crypto";
import { expect, test as base } from "@playwright/test";

/** A documentation address (RFC 5737 / 3849) of the test's own, from its id. */
function addressOf(testId: string): string {
  const n = createHash("sha256").update(testId).digest();
  return `2001:db8:${n.readUInt16BE(0).toString(16)}:${n.readUInt16BE(2).toString(16)}::1`;
}

export const test = base.extend<{ noPageErrors: void }>({
  // Each test is a visitor of its own: the server's per-address limits (scan starts, sign-in
  // attempts) count it apart from every other test, as they would count real visitors.
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use, testInfo) => {
    await use({ ...extraHTTPHeaders, "x-forwarded-for": addressOf(testInfo.testId) });
  },
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
