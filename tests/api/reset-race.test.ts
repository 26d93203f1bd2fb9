/**
 * Issue 21 (11): a password reset ends every session of its access code, including one a sign-in
 * with the old password makes while the reset runs. Sign-ins are sent at the same moment as the
 * reset (on PostgreSQL, on connections of their own): whichever way each one falls, none leaves a
 * session that outlives the reset, and the new password signs in.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "../../src/server/db/orm.ts";
import { sessions } from "../../src/server/db/schema.ts";
import { issueAccessCode, resetAccessCodePassword, setAccessCodeActive } from "../../src/server/repositories/access-codes.ts";
import { apiClient, type Api } from "../support/api.ts";
import { cookieOf } from "../support/auth.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";

const SIGN_INS = 8;

describe.each(databaseTargets())("sign-ins racing a reset on $name", (target) => {
  let database: TestDatabase;
  let api: Api;
  let address = 0;

  beforeAll(async () => {
    database = await target.open();
    api = await apiClient(database);
  });
  afterAll(() => database?.dispose());

  const signIn = (login: string, password: string) =>
    api("/api/auth/validate", {
      method: "POST",
      headers: { "content-type": "application/json", "x-nf-client-connection-ip": `198.51.100.${++address % 250}` },
      body: JSON.stringify({ login, password }),
    });
  const signedIn = async (cookie: string) => ((await (await api("/api/auth/session", { headers: { cookie } })).json()) as { authenticated: boolean }).authenticated;
  const sessionsOf = async (login: string) => {
    const { rows } = (await database.db.execute(sql`SELECT id FROM access_codes WHERE login = ${login}`)) as unknown as { rows: Array<{ id: number }> };
    return (await database.db.select({ n: sql<number>`count(*)::int` }).from(sessions).where(eq(sessions.accessCodeId, rows[0]!.id)))[0]!.n;
  };

  /** Sends the sign-ins and `change` at once; answers the sign-ins' responses once all have settled. */
  async function race(login: string, password: string, change: () => Promise<unknown>): Promise<Response[]> {
    const [responses] = await Promise.all([Promise.all(Array.from({ length: SIGN_INS }, () => signIn(login, password))), change()]);
    return responses;
  }

  it("leaves no session made with the old password, in three rounds", async () => {
    for (let round = 0; round < 3; round++) {
      const code = await issueAccessCode(database.db, { level: "Architect" });
      const responses = await race(code.login, code.password, () => resetAccessCodePassword(database.db, code.login, `new password ${round}`));
      for (const response of responses) {
        expect([200, 401]).toContain(response.status);
        if (response.status === 200) expect(await signedIn(cookieOf(response))).toBe(false);
      }
      expect(await sessionsOf(code.login)).toBe(0);
      const fresh = await signIn(code.login, `new password ${round}`);
      expect(fresh.status).toBe(200);
      expect(await signedIn(cookieOf(fresh))).toBe(true);
    }
  });

  it("leaves no session behind a deactivation sent at the same moment", async () => {
    const code = await issueAccessCode(database.db, { level: "Mastermind" });
    const responses = await race(code.login, code.password, () => setAccessCodeActive(database.db, code.login, false));
    for (const response of responses) if (response.status === 200) expect(await signedIn(cookieOf(response))).toBe(false);
    expect(await sessionsOf(code.login)).toBe(0);
  });
});
