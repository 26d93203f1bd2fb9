/**
 * Playwright's `test`, with each worker's own server (`site`, which `baseURL` points at), and two
 * guards for every end-to-end test:
 * - it starts on a settled site: no site build running or waiting on its worker's server (a test
 *   that changed the chapter list leaves one behind, and pages served meanwhile show a rail that
 *   the live list no longer matches);
 * - an uncaught script error in the page (a thrown exception or an unhandled rejection) fails the
 *   test that caused it, whatever the test itself checks. Console errors are not counted here:
 *   several tests make requests fail on purpose, and the browser logs those.
 */
import { createHash } from "node:crypto";
import { expect, test as base, type APIRequestContext } from "@playwright/test";
import { adminCredentials } from "./admin-fixtures.ts";
import { startWorkerSite, type WorkerSite } from "./server.ts";

/** The longest a test waits for an earlier test's site build to finish. */
const SETTLE_MS = 90_000;

/** Resolves once the server runs no site build and none waits (GET /api/admin/publish, as the admin). */
async function siteSettled(admin: APIRequestContext): Promise<void> {
  const deadline = Date.now() + SETTLE_MS;
  for (;;) {
    let answer = await admin.get("/api/admin/publish");
    if (answer.status() === 401) {
      // (A test may have ended every admin session: sign in again.)
      expect((await admin.post("/api/admin/login", { data: adminCredentials() })).status()).toBe(200);
      answer = await admin.get("/api/admin/publish");
    }
    expect(answer.status(), await answer.text()).toBe(200);
    const status = (await answer.json()) as { state: string; pending: boolean; error: string | null };
    if (status.state !== "publishing" && !status.pending) return;
    if (status.state === "failed") throw new Error(`A site build failed on this worker's server: ${status.error}`);
    if (Date.now() > deadline) throw new Error(`The site was still publishing after ${SETTLE_MS / 1000} s: ${JSON.stringify(status)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A documentation address (RFC 5737 / 3849) of the test's own, from its id. */
function addressOf(testId: string): string {
  const n = createHash("sha256").update(testId).digest();
  return `2001:db8:${n.readUInt16BE(0).toString(16)}:${n.readUInt16BE(2).toString(16)}::1`;
}

export const test = base.extend<{ settled: void; noPageErrors: void }, { site: WorkerSite; siteAdmin: APIRequestContext }>({
  // Each worker's own server and database (server.ts), and every test's requests go to it.
  site: [
    async ({}, use, workerInfo) => {
      const { site, stop } = await startWorkerSite(workerInfo.parallelIndex, workerInfo.workerIndex);
      await use(site);
      await stop();
    },
    { scope: "worker", auto: true, timeout: 180_000 },
  ],
  baseURL: async ({ site }, use) => use(site.url),
  // The worker's own admin client, for `settled`.
  siteAdmin: [
    async ({ site, playwright }, use) => {
      const admin = await playwright.request.newContext({ baseURL: site.url });
      await use(admin);
      await admin.dispose();
    },
    { scope: "worker" },
  ],
  settled: [
    async ({ siteAdmin }, use) => {
      await siteSettled(siteAdmin);
      await use();
    },
    { auto: true, timeout: SETTLE_MS + 10_000 },
  ],
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
