/**
 * What reaches the server (issue 20: 1). An anonymous reader's visit is served by static files and
 * the CDN's cache alone: no function call, no database read. A member's pages still settle their
 * session with the server, and signing out, a session that expired and an access code that ended
 * show on the next page. "Reached the server" is what a function answered: the host marks those
 * answers `Cache-Status: ...; fwd=miss` as Netlify's CDN does; a cache hit says `hit`, and a
 * static file says nothing.
 */
import { request as apiRequest, type APIRequestContext, type Page } from "@playwright/test";
import { adminCredentials } from "./admin-fixtures.ts";
import { loginAs } from "./fixtures.ts";
import { expect, test } from "./page-test.ts";
import { operatorChapters } from "./reader-helpers.ts";

/** Every request of `page` that a function answered, as "METHOD /path", from now on. */
function originRequests(page: Page): string[] {
  const reached: string[] = [];
  page.on("response", (response) => {
    if (/fwd=/.test(response.headers()["cache-status"] ?? "")) reached.push(`${response.request().method()} ${new URL(response.url()).pathname}`);
  });
  return reached;
}

/** Lets the page's scripts finish what they do on load (the session, the live chapter list). */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState("networkidle");
  await page.waitForFunction(() => document.documentElement.hasAttribute("session-checked"));
}

/** Loads each address once, as earlier readers' visits leave it in the CDN's cache. */
async function warm(request: APIRequestContext, paths: string[]): Promise<void> {
  for (const path of paths) expect((await request.get(path)).status(), path).toBe(200);
}

test("an anonymous reader's visit reaches no function: a chapter, the next one, the level switch and a search", async ({ browser, request }) => {
  const [first, second] = await operatorChapters(request);
  await warm(request, [`/${first!.slug}`, `/${second!.slug}`, "/api/chapters"]);
  for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 800 }]) {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const reached = originRequests(page);
    await page.goto(`/${first!.slug}`);
    await settled(page);
    await page.getByTestId("next").click();
    await expect(page).toHaveURL(new RegExp(`/${second!.slug}$`));
    await settled(page);
    // A search of the open level, from the static index.
    await page.locator('[aria-controls="chapter-drawer"]:visible').first().click();
    const drawer = page.getByRole("dialog", { name: "Chapters" });
    const box = drawer.getByRole("searchbox", { name: "Search the book" });
    await box.fill("attention");
    await expect(drawer.getByRole("region", { name: "Search results" }).getByRole("link").first()).toBeVisible();
    // The level switch: a locked level shows its teasers, or sends the reader to /resume.
    await box.fill("");
    await drawer.getByRole("group", { name: "Level" }).getByRole("button", { name: "Architect" }).click({ force: true });
    await expect(page.getByTestId("level-teasers").or(page.getByRole("heading", { name: "Enter The System" }))).toBeVisible();
    await settled(page);
    expect(reached, `${viewport.width} px`).toEqual([]);
    // Nothing about a session was asked or kept.
    expect(await page.evaluate(() => localStorage.getItem("systemAuth")), `${viewport.width} px`).toBeNull();
    await context.close();
  }
});

test("a member's pages settle the session; signing out and a session that expired show on the next page, which then asks nothing", async ({ page, request }) => {
  const [first, second] = await operatorChapters(request);
  await warm(request, [`/${first!.slug}`, `/${second!.slug}`, "/api/chapters"]);
  const reached = originRequests(page);
  const account = page.getByRole("navigation", { name: "Account" });

  await loginAs(page, "Architect");
  await page.goto(`/${first!.slug}`);
  await settled(page);
  await expect(account.getByRole("link", { name: "My Profile" })).toBeVisible();
  expect(reached.filter((r) => r === "GET /api/auth/session")).toHaveLength(1);

  // Signed out from /resume: both cookies go, and the next pages ask nothing.
  await page.goto("/resume");
  await page.getByRole("button", { name: "Exit System" }).click();
  await expect(page.getByRole("heading", { name: "Enter The System" })).toBeVisible();
  reached.length = 0;
  await page.goto(`/${second!.slug}`);
  await settled(page);
  await expect(account.getByRole("link", { name: "Enter The System" })).toBeVisible();
  expect(reached).toEqual([]);

  // A session that expired: its cookies are gone (they share its lifetime) while the stored state
  // still says signed in. The next page asks once and shows the visitor signed out.
  await loginAs(page, "Architect");
  await page.goto(`/${first!.slug}`);
  await settled(page);
  await expect(account.getByRole("link", { name: "My Profile" })).toBeVisible();
  await page.context().clearCookies();
  reached.length = 0;
  await page.goto(`/${second!.slug}`);
  await settled(page);
  await expect(account.getByRole("link", { name: "Enter The System" })).toBeVisible();
  expect(reached).toEqual(["GET /api/auth/session"]);
  expect(await page.evaluate(() => localStorage.getItem("systemAuth"))).toBeNull();
  reached.length = 0;
  await page.goto(`/${first!.slug}`);
  await settled(page);
  expect(reached).toEqual([]);
});

test("an access code ended by the operator shows signed out on the member's next page, and a locked chapter sends them to /resume", async ({ page, request, baseURL }) => {
  const admin = await apiRequest.newContext({ baseURL });
  try {
    expect((await admin.post("/api/admin/login", { data: adminCredentials() })).status()).toBe(200);
    const code = (await (await admin.post("/api/admin/access-codes", { data: { level: "Architect" }, headers: { origin: baseURL! } })).json()) as { login: string; password: string };
    expect((await page.request.post("/api/auth/validate", { data: { login: code.login, password: code.password } })).status()).toBe(200);
    const [first] = await operatorChapters(request);
    const account = page.getByRole("navigation", { name: "Account" });
    await page.goto(`/${first!.slug}`);
    await settled(page);
    await expect(account.getByRole("link", { name: "My Profile" })).toBeVisible();

    const ended = await admin.put(`/api/admin/access-codes/${code.login}/active`, { data: { active: false }, headers: { origin: baseURL! } });
    expect(ended.status()).toBe(200);
    await page.reload();
    await settled(page);
    await expect(account.getByRole("link", { name: "Enter The System" })).toBeVisible();
    // The server cleared the readable cookie with the session's: later pages ask nothing.
    expect((await page.context().cookies()).map((c) => c.name)).not.toContain("sb_signed_in");
    const architect = ((await (await request.get("/api/chapters")).json()) as Array<{ slug: string; level: string }>).find((c) => c.level === "Architect")!;
    await page.goto(`/${architect.slug}`);
    await expect(page).toHaveURL(/\/resume\?level=Architect$/);
  } finally {
    await admin.dispose();
  }
});
