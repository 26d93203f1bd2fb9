/**
 * The private result link (issue 15, item 2) and the scan's drop-off and band figures (item 3).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answersForTotal } from "../../src/lib/assessment/fixtures.ts";
import { loadAssessment } from "../../src/server/assessment/content.ts";
import { tokenHash } from "../../src/server/assessment/result-link.ts";
import { sql } from "../../src/server/db/orm.ts";
import { assessmentResponses, assessmentSessions } from "../../src/server/db/schema.ts";
import { apiClient, type Api } from "../support/api.ts";
import { adminLogin, asAdmin } from "../support/admin.ts";
import { jsonPost } from "../support/auth.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";

const content = loadAssessment();

describe.each(databaseTargets())("result links and the scan funnel on $name", (target) => {
  let database: TestDatabase;
  let api: Api;

  beforeAll(async () => {
    database = await target.open();
    api = await apiClient(database);
  });
  afterAll(() => database?.dispose());

  /** A scan with answers to questions 1..answered (straight into the database). */
  const scan = async (answered: number, { total = 40, completedAt }: { total?: number; completedAt?: Date } = {}) => {
    const answers = answersForTotal(content, total);
    const [session] = await database.db
      .insert(assessmentSessions)
      .values(completedAt ? { completed: "true", name: "N", email: "n@example.com", score: total, scoreBreakdown: { level: "x", totalScore: total, categoryScores: {} }, completedAt } : {})
      .returning();
    if (answered > 0) {
      await database.db.insert(assessmentResponses).values(Array.from({ length: answered }, (_, i) => ({ sessionId: session!.id, questionNumber: i + 1, answer: answers[i + 1]! })));
    }
    return session!.id;
  };

  describe("the result link", () => {
    it("is answered on completion, opens the same result and nothing about the person, privately", async () => {
      const id = await scan(15, { total: 33 });
      const completed = await api(`/api/assessment/session/${id}/complete`, jsonPost({ name: "Grace Hopper", email: "grace@example.com" }));
      const result = (await completed.json()) as { totalScore: number; level: string; description: string; scale: unknown; resultUrl: string };
      // The levels' scale comes with the result (issue 34: 4): ranges and names, no band's text.
      expect(result.scale).toEqual({
        min: 15,
        max: 60,
        bands: [
          { min: 15, max: 26, level: "Default Mode" },
          { min: 27, max: 38, level: "Intermittent Control" },
          { min: 39, max: 49, level: "Deliberate Operation" },
          { min: 50, max: 60, level: "Self-Authored" },
        ],
      });
      expect(result.resultUrl).toMatch(/^\/assessment\/result#[A-Za-z0-9_-]{43}$/);
      const token = result.resultUrl.split("#")[1]!;
      // Completing again answers the same link.
      const again = (await (await api(`/api/assessment/session/${id}/complete`, jsonPost({ name: "Grace Hopper", email: "grace@example.com" }))).json()) as { resultUrl: string };
      expect(again.resultUrl).toBe(result.resultUrl);

      const opened = await api(`/api/assessment/result/${token}`);
      expect(opened.status).toBe(200);
      expect(opened.headers.get("cache-control")).toBe("private, no-store");
      expect(opened.headers.get("x-robots-tag")).toBe("noindex, nofollow");
      const text = await opened.text();
      expect(JSON.parse(text)).toEqual({ totalScore: 33, level: result.level, description: result.description, scale: result.scale });
      expect(text).not.toMatch(/Grace|grace@|Hopper/);
      expect(text).not.toContain(id);

      // Only a hash of the token is stored; the token is in no column.
      const [row] = await database.db.select().from(assessmentSessions).where(sql`${assessmentSessions.id} = ${id}`);
      expect(row!.resultTokenHash).toBe(tokenHash(token));
      expect(JSON.stringify(row)).not.toContain(token);
    });

    it("answers 404 for an unknown or malformed token, and for an unfinished scan", async () => {
      const unknown = await api(`/api/assessment/result/${"A".repeat(43)}`);
      expect(unknown.status).toBe(404);
      expect(unknown.headers.get("cache-control")).toBe("private, no-store");
      expect(unknown.headers.get("x-robots-tag")).toBe("noindex, nofollow");
      for (const token of ["short", "A".repeat(44), "%00", "A".repeat(42) + "!"]) {
        expect((await api(`/api/assessment/result/${token}`)).status, token).toBe(404);
      }
    });
  });

  describe("the funnel and the bands", () => {
    let cookie: string;
    beforeAll(async () => {
      await database.db.delete(assessmentSessions);
      ({ cookie } = await adminLogin(api, database.db));
    });

    it("counts, per question, the scans that reached it and those that stopped there", async () => {
      const now = Date.now();
      const day = 86400_000;
      await scan(0); // stopped at 1
      await scan(0); // stopped at 1
      await scan(3); // stopped at 4
      await scan(3); // stopped at 4
      await scan(7); // stopped at 8
      await scan(15); // stopped at the contact form
      await scan(15, { total: 20, completedAt: new Date(now) }); // Default Mode, this week
      await scan(15, { total: 55, completedAt: new Date(now) }); // Self-Authored, this week
      await scan(15, { total: 55, completedAt: new Date(now - 7 * day) }); // Self-Authored, last week
      const response = await api("/api/admin/assessment/funnel", asAdmin(cookie));
      expect(response.status).toBe(200);
      const funnel = (await response.json()) as {
        opened: number;
        started: number;
        completed: number;
        steps: { step: number | "contact"; reached: number; stopped: number }[];
        bands: { level: string; min: number; max: number }[];
        weeks: { week: string; bands: Record<string, number>; total: number }[];
      };
      // Nine visits opened a scan; the two without an answer never started one.
      expect(funnel.opened).toBe(9);
      expect(funnel.started).toBe(7);
      expect(funnel.completed).toBe(3);
      const by = Object.fromEntries(funnel.steps.map((s) => [s.step, [s.reached, s.stopped]]));
      expect(by[1]).toEqual([9, 2]);
      expect(by[2]).toEqual([7, 0]);
      expect(by[4]).toEqual([7, 2]);
      expect(by[5]).toEqual([5, 0]);
      expect(by[8]).toEqual([5, 1]);
      expect(by[9]).toEqual([4, 0]);
      expect(by[15]).toEqual([4, 0]);
      expect(by.contact).toEqual([4, 1]);
      expect(funnel.steps.reduce((n, s) => n + s.stopped, 0) + funnel.completed).toBe(funnel.opened);
      expect(funnel.bands.map((b) => b.level)).toEqual(content.bands.map((b) => b.level));

      expect(funnel.weeks).toHaveLength(12);
      const [lastWeek, thisWeek] = funnel.weeks.slice(-2);
      expect(new Date(`${thisWeek!.week}T00:00:00Z`).getUTCDay()).toBe(1); // a Monday
      expect(thisWeek!.bands).toEqual({ "Default Mode": 1, "Intermittent Control": 0, "Deliberate Operation": 0, "Self-Authored": 1 });
      expect(lastWeek!.bands["Self-Authored"]).toBe(1);
      expect(lastWeek!.total).toBe(1);
      expect(funnel.weeks.slice(0, -2).every((w) => w.total === 0)).toBe(true);
    });

    it("counts a visit that saved no answer as opened, not started, and a scan with one answer as started", async () => {
      const funnel = async () => (await (await api("/api/admin/assessment/funnel", asAdmin(cookie))).json()) as { opened: number; started: number; completed: number };
      const before = await funnel();
      // Opening /assessment creates the session at once, as the page does.
      const opened = await api("/api/assessment/session", jsonPost({ userId: null, completed: "false", score: 0, scoreBreakdown: null }));
      expect(opened.ok).toBe(true);
      const { id } = (await opened.json()) as { id: string };
      const visited = await funnel();
      expect(visited).toEqual({ ...visited, opened: before.opened + 1, started: before.started, completed: before.completed });
      const saved = await api("/api/assessment/response", jsonPost({ sessionId: id, questionNumber: 1, answer: "A" }));
      expect(saved.ok).toBe(true);
      const answered = await funnel();
      expect(answered).toEqual({ ...answered, opened: before.opened + 1, started: before.started + 1, completed: before.completed });
      await database.db.delete(assessmentSessions).where(sql`${assessmentSessions.id} = ${id}`);
    });

    it("filters the list and the CSV by band, and the CSV carries the band", async () => {
      const page = (await (await api(`/api/admin/assessment/sessions?band=${encodeURIComponent("Self-Authored")}`, asAdmin(cookie))).json()) as {
        submissions: { score: number }[];
        total: number;
      };
      expect(page.total).toBe(2);
      expect(page.submissions.map((s) => s.score)).toEqual([55, 55]);
      const csv = await (await api(`/api/admin/assessment/sessions.csv?band=${encodeURIComponent("Default Mode")}`, asAdmin(cookie))).text();
      const lines = csv.trimEnd().split("\r\n");
      expect(lines[0]).toMatch(/^id,name,email,completed,score,level,band,startedAt,/);
      expect(lines).toHaveLength(2);
      expect(lines[1]!.split(",").slice(3, 7)).toEqual(["true", "20", "x", "Default Mode"]);
      const bad = await api("/api/admin/assessment/sessions?band=Nope", asAdmin(cookie));
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/^band: must be one of "Default Mode"/);
    });
  });
});
