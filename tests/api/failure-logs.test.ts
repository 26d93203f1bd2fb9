/**
 * What the server logs when a statement fails (issue 31: 3): the failure's code and a fixed
 * sentence, never what the statement carried. A chapter page's key is read for every reader who
 * asks in one turn in one statement, so its parameters are other readers' session ids.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { inArray, sql } from "../../src/server/db/orm.ts";
import { accessCodes, sessions } from "../../src/server/db/schema.ts";
import { failureLine } from "../../src/server/http/log-failure.ts";
import { apiClient, type Api } from "../support/api.ts";
import { loginAs } from "../support/auth.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";
import { createChapter } from "../support/factories.ts";

describe("failureLine", () => {
  it("words a failed statement by its SQLSTATE only, and any other error by its own message", () => {
    const cause = Object.assign(new Error('invalid input syntax for type integer: "secret-value"'), { code: "22P02", severity: "ERROR" });
    const failed = Object.assign(new Error("Failed query: select 1 where x = $1\nparams: secret-value"), { query: "select 1 where x = $1", params: ["secret-value"], cause });
    expect(failureLine("Could not", failed)).toBe("Could not: a database statement failed (SQLSTATE 22P02).");
    expect(failureLine("Could not", cause)).toBe("Could not: a database statement failed (SQLSTATE 22P02).");
    expect(failureLine("Could not", new TypeError("x is not a function"))).toBe("Could not: x is not a function");
    expect(failureLine("Could not", new TypeError("x is not a function"), { stack: true })).toMatch(/^Could not: TypeError: x is not a function\n\s+at /);
    expect(failureLine("Could not", "a string")).toBe("Could not: a string");
  });
});

describe.each(databaseTargets())("a failed chapter page statement's log on $name", (target) => {
  let database: TestDatabase;
  let api: Api;
  beforeAll(async () => {
    database = await target.open();
    api = await apiClient(database);
  });
  afterAll(() => database?.dispose());
  afterEach(() => vi.restoreAllMocks());

  it("holds the failure's code and no reader's session id", async () => {
    const chapter = await createChapter(database.db, { level: "Architect" });
    const readers = [await loginAs(api, database.db, "Architect"), await loginAs(api, database.db, "Mastermind")];
    const logins = readers.map((reader) => reader.code.login);
    const sids = (
      await database.db
        .select({ sid: sessions.sid })
        .from(sessions)
        .innerJoin(accessCodes, sql`${accessCodes.id} = ${sessions.accessCodeId}`)
        .where(inArray(accessCodes.login, logins))
    ).map((row) => row.sid);
    expect(sids).toHaveLength(2);

    // The content version becomes a view that fails as it is read (division by zero, 22012): the
    // page key statement is parsed and planned, and fails with the asks' arrays bound to it.
    await database.db.execute(sql.raw("ALTER TABLE content_version RENAME TO content_version_away"));
    await database.db.execute(sql.raw("CREATE VIEW content_version AS SELECT id, version / 0 AS version FROM content_version_away"));
    const logged: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
    try {
      const answers = await Promise.all(readers.map(({ cookie }) => api(`/${chapter.slug}`, { headers: { cookie } })));
      expect(answers.map((answer) => answer.status)).toEqual([500, 500]);
    } finally {
      vi.restoreAllMocks();
      await database.db.execute(sql.raw("DROP VIEW content_version"));
      await database.db.execute(sql.raw("ALTER TABLE content_version_away RENAME TO content_version"));
    }
    expect(logged).toHaveLength(2);
    for (const line of logged) {
      expect(line).toBe("Could not render a chapter page: a database statement failed (SQLSTATE 22012).");
      for (const sid of sids) expect(line).not.toContain(sid);
    }
  });
});
