/**
 * Round trips on the hot paths (issue 11): the statements one request sends to the database,
 * counted as drizzle sends them (a transaction's BEGIN and COMMIT count too).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../../src/server/content/seed.ts";
import { useSitePages } from "../../src/server/pages/site-pages.ts";
import { listChapters } from "../../src/server/repositories/chapters.ts";
import { apiClient, type Api } from "../support/api.ts";
import { jsonPost, loginAs } from "../support/auth.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";
import { statementsOf } from "../support/query-count.ts";
import { minimalShell } from "../support/chapter-shell.ts";

const HEARTBEAT_CEILING = 2;

describe.each(databaseTargets())("round trips on $name", (target) => {
  let database: TestDatabase;
  let api: Api;

  beforeAll(async () => {
    database = await target.open();
    await seed(database.db);
    api = await apiClient(database);
    // The chapter shell's placeholders are all a chapter page needs of the built site.
    const shell = minimalShell();
    useSitePages((pathname) => (pathname === "/chapter-shell" ? shell : null));
  });
  afterAll(async () => {
    useSitePages(undefined);
    await database?.dispose();
  });

  async function count(work: () => Promise<Response>, expectedStatus: number): Promise<number> {
    let status = 0;
    const statements = await statementsOf(async () => {
      const response = await work();
      status = response.status;
      await response.arrayBuffer();
    });
    expect(status, statements.join("\n")).toBe(expectedStatus);
    console.log(`${target.name}: ${statements.length} statements\n  ${statements.map((s) => s.slice(0, 110)).join("\n  ")}`);
    return statements.length;
  }

  it("saves a scan answer in 1 statement", async () => {
    const { id } = (await (await api("/api/assessment/session", jsonPost({}))).json()) as { id: string };
    expect(await count(() => api("/api/assessment/response", jsonPost({ sessionId: id, questionNumber: 3, answer: "C" })), 200)).toBe(1);
  });

  // A login: count the attempt, find the code, open the session (with the settled limits and the
  // code's last use). A heartbeat: the session's lookup, then one statement. A locked page: the
  // page's key (the content version, the chapter's id and level) with the session, in one
  // statement; the first time also its text, to render it (src/server/pages/render-cache.ts).
  it("signs a reader in with 3 statements; records a heartbeat with 2; serves a locked chapter page with 2, then 1", async () => {
    const { cookie, code } = await loginAs(api, database.db, "Architect");
    const login = await count(() => api("/api/auth/validate", jsonPost({ login: code.login, password: code.password })), 200);
    const [locked] = await listChapters(database.db, ["Architect"]);
    const heartbeat = await count(() => api("/api/reading/heartbeat", jsonPost({ slug: locked!.slug }, { cookie })), 204);
    const rendered = await count(() => api(`/${locked!.slug}`, { headers: { cookie } }), 200);
    const kept = await count(() => api(`/${locked!.slug}`, { headers: { cookie } }), 200);
    console.log(`${target.name}: login ${login}, heartbeat ${heartbeat}, locked page ${rendered} then ${kept} statements`);
    expect(login).toBe(3);
    expect(heartbeat).toBeLessThanOrEqual(HEARTBEAT_CEILING);
    expect(rendered).toBe(2);
    expect(kept).toBe(1);
  });
});
