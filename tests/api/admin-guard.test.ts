/**
 * Every admin function answers 401 without a session and 403 with a reader's, for every method
 * it serves: found by walking netlify/functions (admin-*.ts and upload.ts) and reading each
 * config.path, so a new admin route is covered the day it is added.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readNetlifyConfig } from "../../src/server/host/netlify-config.ts";
import { apiClient, type Api } from "../support/api.ts";
import { loginAs } from "../support/auth.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";

/** The admin routes that must answer without an admin session: signing in and finding out whether one is needed. */
const OPEN = new Set(["/api/admin/login", "/api/admin/logout", "/api/admin/session", "/api/admin/setup"]);
const METHODS = ["GET", "POST", "PUT", "DELETE"] as const;
const SAMPLE: Record<string, string> = { id: "1", login: "Architect1234" };

const dir = readNetlifyConfig().functionsDir;
const files = fs.readdirSync(dir).filter((file) => /^(admin-.*|upload)\.ts$/.test(file));
const routes = (
  await Promise.all(
    files.map(async (file) => {
      const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as { config?: { path?: string | string[] } };
      return [mod.config?.path ?? []].flat().map((pattern) => ({ file, pattern }));
    }),
  )
)
  .flat()
  .filter(({ pattern }) => !OPEN.has(pattern));

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

  it("finds every admin function and the upload", () => {
    expect(files).toContain("upload.ts");
    expect(files).toContain("admin-chapters.ts");
    expect(routes.length).toBeGreaterThanOrEqual(15);
  });

  it.each(routes)("$pattern ($file) refuses anonymous callers (401) and readers (403)", async ({ pattern }) => {
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
