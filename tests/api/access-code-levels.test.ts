/**
 * Access codes are issued for the locked levels only (issue 22, point 7): Operator is open to
 * everyone, so the API refuses a code for it with a clear 400 and writes nothing; codes issued for
 * Operator before keep working and stay listed, and their actions still answer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accessCodes } from "../../src/server/db/schema.ts";
import { issueAccessCode } from "../../src/server/repositories/access-codes.ts";
import { apiClient, type Api } from "../support/api.ts";
import { adminLogin, asAdmin } from "../support/admin.ts";
import { jsonPost } from "../support/auth.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";

describe.each(databaseTargets())("access code levels on $name", (target) => {
  let database: TestDatabase;
  let api: Api;
  let cookie: string;

  beforeAll(async () => {
    database = await target.open();
    api = await apiClient(database);
    ({ cookie } = await adminLogin(api, database.db));
  });
  afterAll(() => database?.dispose());

  it("refuses a code for Operator with a clear 400 and writes nothing", async () => {
    const before = await database.db.select().from(accessCodes);
    const refused = await api("/api/admin/access-codes", asAdmin(cookie, "POST", { level: "Operator", login: "OperatorCode1" }));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      error: { code: "bad_request", message: "level: An access code is for a locked level: Architect or Mastermind. Operator is open to everyone" },
    });
    expect(await database.db.select().from(accessCodes)).toHaveLength(before.length);

    for (const level of ["Architect", "Mastermind"]) {
      const issued = await api("/api/admin/access-codes", asAdmin(cookie, "POST", { level }));
      expect(issued.status, level).toBe(201);
      expect(((await issued.json()) as { level: string }).level).toBe(level);
    }
  });

  it("keeps an Operator code issued before working, listed and managed", async () => {
    const old = await issueAccessCode(database.db, { level: "Operator", login: "OldOperator01" });
    const list = (await (await api("/api/admin/access-codes", asAdmin(cookie))).json()) as { login: string; level: string }[];
    expect(list.find((code) => code.login === old.login)).toMatchObject({ level: "Operator" });
    expect((await api("/api/auth/validate", jsonPost({ login: old.login, password: old.password }))).status).toBe(200);

    const settings = await api(`/api/admin/access-codes/${old.login}/settings`, asAdmin(cookie, "PUT", { maxSessions: 2 }));
    expect(settings.status).toBe(200);
    const reset = await api(`/api/admin/access-codes/${old.login}/reset-password`, asAdmin(cookie, "POST"));
    expect(reset.status).toBe(200);
    const { password } = (await reset.json()) as { password: string };
    expect((await api("/api/auth/validate", jsonPost({ login: old.login, password }))).status).toBe(200);
    const off = await api(`/api/admin/access-codes/${old.login}/active`, asAdmin(cookie, "PUT", { active: false }));
    expect(off.status).toBe(200);
  });
});
