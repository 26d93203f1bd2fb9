import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadAssessment } from "../../src/server/assessment/content.ts";
import { sql } from "../../src/server/db/orm.ts";
import { assessmentResponses, assessmentSessions } from "../../src/server/db/schema.ts";
import { markRequested } from "../../src/server/publish/state.ts";
import { apiClient, type Api } from "../support/api.ts";
import { adminLogin, asAdmin } from "../support/admin.ts";
import { jsonPost } from "../support/auth.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";

describe.each(databaseTargets())("admin submissions, access codes and publishing on $name", (target) => {
  let database: TestDatabase;
  let api: Api;
  let cookie: string;

  beforeAll(async () => {
    database = await target.open();
    api = await apiClient(database);
    ({ cookie } = await adminLogin(api, database.db));
  });
  afterAll(() => database?.dispose());

  it("lists submissions newest first with their answers by question, and exports them as CSV", async () => {
    const breakdown = { level: "Architect", totalScore: 31, categoryScores: { identity: 10, control: 21 } };
    const [older] = await database.db
      .insert(assessmentSessions)
      .values({ name: "=HYPERLINK(\"x\")", email: "a@example.com", completed: "true", score: 31, scoreBreakdown: breakdown, startedAt: new Date("2026-11-01T10:00:00Z"), completedAt: new Date("2026-11-01T10:05:00Z") })
      .returning();
    const [newer] = await database.db
      .insert(assessmentSessions)
      .values({ startedAt: new Date("2026-11-02T10:00:00Z") })
      .returning();
    await database.db.insert(assessmentResponses).values([
      { sessionId: older!.id, questionNumber: 2, answer: "B" },
      { sessionId: older!.id, questionNumber: 1, answer: "A" },
      { sessionId: newer!.id, questionNumber: 1, answer: "D" },
    ]);
    const response = await api("/api/admin/assessment/sessions", asAdmin(cookie));
    expect(response.status).toBe(200);
    const page = (await response.json()) as {
      submissions: { id: string; completed: string; scoreBreakdown: unknown; completedAt: string | null; responses: { questionNumber: number; answer: string }[] }[];
      total: number;
      nextCursor: string | null;
    };
    expect(page).toMatchObject({ total: 2, nextCursor: null });
    const list = page.submissions;
    expect(list.map((s) => s.id)).toEqual([newer!.id, older!.id]);
    expect(list[1]).toMatchObject({ completed: "true", scoreBreakdown: breakdown, completedAt: "2026-11-01T10:05:00.000Z" });
    expect(list[1]!.responses.map((r) => [r.questionNumber, r.answer])).toEqual([[1, "A"], [2, "B"]]);
    expect(list[0]).toMatchObject({ completed: "false", completedAt: null });

    const csv = await api("/api/admin/assessment/sessions.csv", asAdmin(cookie));
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toMatch(/^attachment; filename="assessment-submissions-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = (await csv.text()).trimEnd().split("\r\n");
    expect(lines[0]).toBe(`id,name,email,completed,score,level,band,startedAt,completedAt,${Array.from({ length: 15 }, (_, i) => `Q${i + 1}`).join(",")}`);
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe(`${older!.id},"'=HYPERLINK(""x"")",a@example.com,true,31,Architect,Intermittent Control,2026-11-01T10:00:00.000Z,2026-11-01T10:05:00.000Z,A,B${",".repeat(13)}`);
  });

  it("names each answer's question and the chosen option in words (today's content), and keeps the CSV to letters", async () => {
    const { questions } = loadAssessment();
    const [scan] = await database.db.insert(assessmentSessions).values({ startedAt: new Date("2026-11-03T10:00:00Z") }).returning();
    await database.db.insert(assessmentResponses).values([
      { sessionId: scan!.id, questionNumber: 15, answer: "D" },
      { sessionId: scan!.id, questionNumber: 1, answer: "C" },
    ]);
    const response = await api(`/api/admin/assessment/sessions?id=${scan!.id}`, asAdmin(cookie));
    expect(response.status).toBe(200);
    const { submissions } = (await response.json()) as { submissions: { responses: { questionNumber: number; answer: string; questionText: string | null; answerText: string | null }[] }[] };
    expect(submissions).toHaveLength(1);
    expect(submissions[0]!.responses.map(({ questionNumber, answer, questionText, answerText }) => ({ questionNumber, answer, questionText, answerText }))).toEqual([
      { questionNumber: 1, answer: "C", questionText: questions[0]!.text, answerText: questions[0]!.options[2]!.text },
      { questionNumber: 15, answer: "D", questionText: questions[14]!.text, answerText: questions[14]!.options[3]!.text },
    ]);
    expect(questions[0]!.text.length).toBeGreaterThan(10);
    // The browser never learns an option's points from it.
    expect(JSON.stringify(submissions)).not.toMatch(/points|dimension/);

    const csv = await (await api("/api/admin/assessment/sessions.csv", asAdmin(cookie))).text();
    const row = csv.split("\r\n").find((line) => line.startsWith(scan!.id))!;
    expect(row.endsWith(`,C${",".repeat(14)}D`)).toBe(true);
  });

  it("pages through many submissions with a cursor, newest first, and streams all of them as CSV", async () => {
    const base = Date.parse("2027-01-01T00:00:00Z");
    // 250 scans, two of them started at the same moment (the cursor breaks the tie by id).
    const rows = Array.from({ length: 250 }, (_, i) => ({ startedAt: new Date(base + Math.min(i, 248) * 1000) }));
    await database.db.insert(assessmentSessions).values(rows);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
      const response = await api(`/api/admin/assessment/sessions?limit=100${query}`, asAdmin(cookie));
      expect(response.status).toBe(200);
      const page = (await response.json()) as { submissions: { id: string; startedAt: string }[]; total: number; nextCursor: string | null };
      expect(page.submissions.length).toBeLessThanOrEqual(100);
      seen.push(...page.submissions.map((s) => s.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    const all = await database.db.select({ id: assessmentSessions.id, startedAt: assessmentSessions.startedAt }).from(assessmentSessions);
    expect(pages).toBe(Math.ceil(all.length / 100));
    expect(new Set(seen).size).toBe(all.length);
    const expected = [...all].sort((a, b) => b.startedAt.getTime() - a.startedAt.getTime() || (a.id < b.id ? 1 : -1)).map((s) => s.id);
    expect(seen).toEqual(expected);

    const bad = await api("/api/admin/assessment/sessions?cursor=nonsense", asAdmin(cookie));
    expect(bad.status).toBe(400);
    expect((await api("/api/admin/assessment/sessions?limit=501", asAdmin(cookie))).status).toBe(400);

    const csv = await (await api("/api/admin/assessment/sessions.csv", asAdmin(cookie))).text();
    expect(csv.trimEnd().split("\r\n")).toHaveLength(all.length + 1);
  });

  it("lists only scans with an answer when asked, and says how many there are of how many", async () => {
    const [withAnswer, without] = await database.db.insert(assessmentSessions).values([{}, {}]).returning({ id: assessmentSessions.id });
    await database.db.insert(assessmentResponses).values({ sessionId: withAnswer!.id, questionNumber: 1, answer: "A" });
    type Page = { submissions: { id: string }[]; total: number; all: number };
    const every = (await (await api("/api/admin/assessment/sessions?limit=500", asAdmin(cookie))).json()) as Page;
    const answered = (await (await api("/api/admin/assessment/sessions?limit=500&answered=true", asAdmin(cookie))).json()) as Page;
    expect(every.submissions.map((s) => s.id)).toEqual(expect.arrayContaining([withAnswer!.id, without!.id]));
    expect(answered.submissions.map((s) => s.id)).toContain(withAnswer!.id);
    expect(answered.submissions.map((s) => s.id)).not.toContain(without!.id);
    expect(every.total).toBe(every.all);
    expect(answered.all).toBe(every.all);
    expect(answered.total).toBe(answered.submissions.length);
    expect(answered.total).toBeLessThan(every.total);
    const csv = await (await api("/api/admin/assessment/sessions.csv?answered=true", asAdmin(cookie))).text();
    expect(csv).toContain(withAnswer!.id);
    expect(csv).not.toContain(without!.id);
    expect((await api("/api/admin/assessment/sessions?answered=maybe", asAdmin(cookie))).status).toBe(400);
  });

  it("pages without skipping scans started within one millisecond (the database keeps microseconds)", async () => {
    // One statement: every row gets the same now() to the microsecond, and the ones after it differ
    // from it by microseconds only, below what a JavaScript date holds.
    await database.db.execute(sql`
      insert into assessment_sessions (started_at)
      select now() - (n * interval '1 microsecond') from generate_series(0, 5) as n`);
    const all = await database.db.select({ id: assessmentSessions.id }).from(assessmentSessions);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
      const page = (await (await api(`/api/admin/assessment/sessions?limit=2${query}`, asAdmin(cookie))).json()) as { submissions: { id: string }[]; nextCursor: string | null };
      seen.push(...page.submissions.map((s) => s.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen.sort()).toEqual(all.map((s) => s.id).sort());
  });

  it("issues, lists, deactivates, reactivates and resets access codes; the issued code logs in", async () => {
    const issued = await api("/api/admin/access-codes", asAdmin(cookie, "POST", { level: "Architect" }));
    expect(issued.status).toBe(201);
    const code = (await issued.json()) as { login: string; password: string; level: string };
    expect(code.level).toBe("Architect");
    expect(code.password.length).toBeGreaterThanOrEqual(20);
    const reader = await api("/api/auth/validate", jsonPost({ login: code.login, password: code.password }));
    expect(reader.status).toBe(200);

    const named = await api("/api/admin/access-codes", asAdmin(cookie, "POST", { level: "Mastermind", login: "Mastermind777" }));
    expect(named.status).toBe(201);
    expect((await api("/api/admin/access-codes", asAdmin(cookie, "POST", { level: "Mastermind", login: "Mastermind777" }))).status).toBe(409);
    expect((await api("/api/admin/access-codes", asAdmin(cookie, "POST", { level: "Boss" }))).status).toBe(400);

    const list = (await (await api("/api/admin/access-codes", asAdmin(cookie))).json()) as Record<string, unknown>[];
    const row = list.find((c) => c.login === code.login)!;
    expect(Object.keys(row).sort()).toEqual([
      "activeSessions",
      "createdAt",
      "expired",
      "expiresAt",
      "id",
      "isActive",
      "lastUsedAt",
      "level",
      "login",
      "maxSessions",
      "notebookNotes",
      "usedAt",
    ]);
    expect(row.usedAt).not.toBeNull();

    const off = await api(`/api/admin/access-codes/${code.login}/active`, asAdmin(cookie, "PUT", { active: false }));
    expect(await off.json()).toMatchObject({ login: code.login, isActive: false });
    // Refused, and told so, to whoever knows its password (issue 44: 6).
    const refused = await api("/api/auth/validate", jsonPost({ login: code.login, password: code.password }));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: "access_code_inactive" } });
    await api(`/api/admin/access-codes/${code.login}/active`, asAdmin(cookie, "PUT", { active: true }));
    const reset = await api(`/api/admin/access-codes/${code.login}/reset-password`, asAdmin(cookie, "POST"));
    const fresh = (await reset.json()) as { password: string };
    expect(fresh.password).not.toBe(code.password);
    expect((await api("/api/auth/validate", jsonPost({ login: code.login, password: fresh.password }))).status).toBe(200);
    expect((await api("/api/admin/access-codes/Nobody999/active", asAdmin(cookie, "PUT", { active: true }))).status).toBe(404);
    expect((await api(`/api/admin/access-codes/${code.login}/active`, asAdmin(cookie, "PUT", { active: "yes" }))).status).toBe(400);
  });

  it("reports the publish state; a content change makes work pending", async () => {
    const before = (await (await api("/api/admin/publish", asAdmin(cookie))).json()) as Record<string, unknown>;
    expect(Object.keys(before).sort()).toEqual(["cachePurge", "error", "lastPublishedAt", "pending", "searchIndex", "state"]);
    await markRequested(database.db);
    const after = (await (await api("/api/admin/publish", asAdmin(cookie))).json()) as { pending: boolean; state: string };
    expect(after).toMatchObject({ pending: true, state: "live" });
    const now = await api("/api/admin/publish", asAdmin(cookie, "POST"));
    expect(now.status).toBe(202);
  });
});
