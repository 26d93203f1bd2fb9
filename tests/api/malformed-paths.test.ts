/**
 * Issue 21 (8): a path that is not valid percent-encoding answers 400 with the JSON error shape on
 * every route of the API's table (the webhooks and their delivery log included), whatever the
 * method and whoever asks; and an error no handler expected answers the JSON shape too, never the
 * platform's plain-text 500.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiDispatcher } from "../../src/server/api/routes.ts";
import { cookieName } from "../../src/server/auth/cookies.ts";
import { hashPassword } from "../../src/server/auth/password.ts";
import { issueSession } from "../../src/server/auth/session.ts";
import { adminAccounts } from "../../src/server/db/schema.ts";
import { apiClient, type Api } from "../support/api.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";
import { API_PATTERNS } from "../support/routes.ts";

const MALFORMED = "%E0%A4%A";

describe.each(databaseTargets().slice(0, 1))("malformed addresses on $name", (target) => {
  let database: TestDatabase;
  let api: Api;
  let admin: string;

  beforeAll(async () => {
    database = await target.open();
    api = await apiClient(database);
    const [account] = await database.db
      .insert(adminAccounts)
      .values({ email: "paths@example.com", passwordHash: await hashPassword("a long enough password") })
      .returning();
    admin = `${cookieName("admin")}=${(await issueSession(database.db, "admin", { adminId: account!.id })).token}`;
  });
  afterAll(() => database?.dispose());

  const withParameters = API_PATTERNS.filter((pattern) => pattern.includes(":"));

  it("covers every route family that takes a part of its address", () => {
    for (const family of ["/api/chapters/", "/api/admin/chapters/", "/api/admin/subsections/", "/api/admin/access-codes/", "/api/admin/webhooks/", "/api/admin/webhook-deliveries/", "/uploads/"]) {
      expect(withParameters.some((pattern) => pattern.startsWith(family)), family).toBe(true);
    }
  });

  it.each(withParameters)("%s answers 400 in JSON for every method, anonymous or as the admin", async (pattern) => {
    const pathname = pattern.replace(/:\w+/g, MALFORMED);
    for (const cookie of [undefined, admin]) {
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
        const response = await api(pathname, { method, headers: { "content-type": "application/json", ...(cookie && { cookie }) }, body: method === "GET" ? undefined : "{}" });
        expect(response.status, `${method} ${pathname}`).toBe(400);
        expect(response.headers.get("content-type")).toMatch(/^application\/json/);
        expect(await response.json()).toEqual({ error: { code: "bad_request", message: expect.stringContaining("percent-encoded") } });
      }
    }
  });
});

describe("an error no handler expected", () => {
  it("answers 500 with the JSON error shape, thrown or rejected", async () => {
    const dispatch = apiDispatcher([
      ["/api/throws", () => { throw new TypeError("boom at a secret place"); }],
      ["/api/rejects/:id", () => Promise.reject(new Error("boom"))],
    ]);
    for (const pathname of ["/api/throws", "/api/rejects/1"]) {
      const response = await dispatch(new Request(`http://localhost${pathname}`));
      expect(response.status).toBe(500);
      const body = await response.json();
      expect(body).toEqual({ error: { code: "internal", message: expect.any(String) } });
      expect(JSON.stringify(body)).not.toContain("secret place");
    }
  });
});
