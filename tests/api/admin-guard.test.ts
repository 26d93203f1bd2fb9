/**
 * Every admin address answers 401 without a session and 403 with a reader's, for every method it
 * serves: found in the API's route table, the image upload's function and the page function (the
 * tier preview), so a new admin route is covered the day it is added.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, type Api } from "../support/api.ts";
import { loginAs } from "../support/auth.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";
import { FUNCTION_PATTERNS } from "../support/routes.ts";

/** The admin routes that must answer without an admin session: signing in and finding out whether one is needed. */
const OPEN = new Set(["/api/admin/login", "/api/admin/logout", "/api/admin/session", "/api/admin/setup"]);
const METHODS = ["GET", "POST", "PUT", "DELETE"] as const;
const SAMPLE: Record<string, string> = { id: "1", login: "Architect1234" };

const routes = FUNCTION_PATTERNS.filter((pattern) => /^\/(api\/admin|api\/upload|admin)\//.test(`${pattern}/`) && !OPEN.has(pattern)).map((pattern) => ({ pattern }));

describe.each(databaseTargets().slice(0, 1))("the admin guard on $name", (target) => {
  let database: TestDatabase;
  let api: Api;
  let readerCookie: string;

  beforeAll(async () => {
    database = await target.open();
    api = await apiClient(database);
    ({ cookie: readerCookie } = await loginAs(api, database.db, "Mastermind"));
  });
  afterAll(() => database?.dispose());

  it("finds every admin route, the upload and the preview", () => {
    const patterns = routes.map((route) => route.pattern);
    for (const pattern of ["/api/upload", "/api/admin/chapters", "/admin/preview/:id"]) expect(patterns).toContain(pattern);
    expect(routes.length).toBeGreaterThanOrEqual(30);
  });

  it.each(routes)("$pattern refuses anonymous callers (401) and readers (403)", async ({ pattern }) => {
    const pathname = pattern.replace(/:(\w+)/g, (_, name: string) => SAMPLE[name] ?? "1");
    let served = 0;
    for (const method of METHODS) {
      const init = (cookie?: string): RequestInit => ({
        method,
        headers: { ...(cookie ? { cookie } : {}), ...(method === "GET" ? {} : { "content-type": "application/json" }) },
        body: method === "GET" ? undefined : "{}",
      });
      const anonymous = await api(pathname, init());
      if (anonymous.status === 405) continue;
      served++;
      expect(anonymous.status, `${method} ${pathname} anonymous`).toBe(401);
      // An API route answers JSON; a page of the admin's own (the tier preview) says to sign in.
      if (pattern.startsWith("/api/")) expect(((await anonymous.json()) as { error: { code: string } }).error.code).toBe("unauthenticated");
      else expect(await anonymous.text()).toContain("sign in to the admin panel");
      const reader = await api(pathname, init(readerCookie));
      expect(reader.status, `${method} ${pathname} as a reader`).toBe(403);
    }
    expect(served, `${pathname} serves no method`).toBeGreaterThan(0);
  });
});
