import type { Page } from "@playwright/test";
import { expect, test } from "./page-test.ts";
import { adminLogin } from "./admin-fixtures.ts";
import { loginAs } from "./fixtures.ts";
import { hydrated, operatorChapters, type ListedChapter } from "./reader-helpers.ts";

/**
 * Collects CSP violations the page reports, from the first script on, and every console error
 * (a failed load, a logged error). Uncaught script errors fail every test (./page-test.ts).
 */
let errors: string[] = [];
test.beforeEach(async ({ page }) => {
  errors = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`${page.url()}: ${message.text()}`);
  });
  await page.addInitScript(() => {
    (window as unknown as { cspViolations: string[] }).cspViolations = [];
    document.addEventListener("securitypolicyviolation", (event) => {
      (window as unknown as { cspViolations: string[] }).cspViolations.push(`${event.violatedDirective}: ${event.blockedURI}`);
    });
  });
});

const violations = (page: Page) =>
  page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);

test("a running server sends the security headers, and every page runs under its policy without a violation or an error", async ({ page, request }) => {
  const [chapter] = await operatorChapters(request);
  const response = await request.get(`/${chapter!.slug}`);
  const headers = response.headers();
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["permissions-policy"]).toContain("geolocation=()");
  // Plain http locally: no HSTS (browsers would ignore it); behind HTTPS it is sent.
  expect(headers["strict-transport-security"]).toBeUndefined();
  const secure = await request.get(`/${chapter!.slug}`, { headers: { "x-forwarded-proto": "https" } });
  expect(secure.headers()["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
  const html = await response.text();
  const meta = /<meta http-equiv="content-security-policy" content="([^"]+)"/.exec(html)?.[1] ?? "";
  const scriptSrc = /script-src ([^;]+);/.exec(meta)?.[1] ?? "";
  // Nothing may eval JavaScript, nor compile WebAssembly (the search box's index is plain data:
  // decision 0031). A reader page holds no inline script after the policy (the island runtime
  // comes in the page script: src/scripts/islands.ts); a page that does names each by its hash.
  expect(scriptSrc).toMatch(/^'self'( 'sha256-[^']+')*\s*$/);
  expect(scriptSrc).not.toContain("unsafe");

  for (const path of [`/${chapter!.slug}`, "/apply", "/assessment", "/in-person", "/resume", "/about", "/admin", "/"]) {
    await page.goto(path);
    if (path !== "/") await hydrated(page);
    else await page.waitForURL(/\/[a-z0-9-]+$/);
    expect(await violations(page), path).toEqual([]);
  }
  expect(errors).toEqual([]);
});

test("signed in, a locked chapter rendered by the server, the profile and /resume run under the same policy, without an error", async ({ page }) => {
  await loginAs(page, "Mastermind");
  const all = (await (await page.request.get("/api/chapters")).json()) as ListedChapter[];
  const locked = all.find((c) => c.level === "Mastermind")!;
  const response = await page.goto(`/${locked.slug}`);
  expect(response!.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  await hydrated(page);
  await expect(page.getByRole("heading", { level: 1, name: locked.title })).toBeVisible();
  expect(await violations(page)).toEqual([]);
  await page.goto("/profile");
  await expect(page.getByRole("heading", { name: "My Profile" })).toBeVisible();
  expect(await violations(page)).toEqual([]);
  await page.goto("/resume");
  await expect(page.getByRole("heading", { name: "System Access Granted" })).toBeVisible();
  expect(await violations(page)).toEqual([]);
  expect(errors).toEqual([]);
});

test("signed in as the admin, the panel and each of its tabs run under the policy, without an error", async ({ page }) => {
  await adminLogin(page);
  for (const tab of [/^Assessment Submissions/, /^Access Codes/, /^Chapters/]) {
    await page.getByRole("tab", { name: tab }).click();
    await expect(page.getByRole("tab", { name: tab })).toHaveAttribute("aria-selected", "true");
  }
  await page.getByRole("button", { name: "Create New Chapter" }).click();
  await expect(page.getByRole("dialog", { name: "Create New Chapter" })).toBeVisible();
  expect(await violations(page)).toEqual([]);
  expect(errors).toEqual([]);
});
