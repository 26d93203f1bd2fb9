import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answersForTotal } from "../../src/lib/assessment/fixtures.ts";
import { QUESTION_NUMBERS, type Answers } from "../../src/lib/assessment/model.ts";
import { scoreScale } from "../../src/lib/assessment/content.ts";
import { scoreAnswers } from "../../src/lib/assessment/scoring.ts";
import { SESSION_LIMIT } from "../../src/server/api/assessment.ts";
import { loadAssessment } from "../../src/server/assessment/content.ts";
import { assessmentResponses, assessmentSessions } from "../../src/server/db/schema.ts";
import { apiClient, type Api } from "../support/api.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";

const content = loadAssessment();
const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});
let addressSeq = 0;
/** Each test gets its own client address, so the session limit only counts its own sessions. */
const freshAddress = () => `198.51.100.${++addressSeq}`;

interface ErrorBody {
  error: { code: string; message: string };
}

describe.each(databaseTargets())("scan API on $name", (target) => {
  let database: TestDatabase;
  let api: Api;
  beforeAll(async () => {
    database = await target.open();
    api = await apiClient(database);
  });
  afterAll(() => database?.dispose());

  const start = async (body: unknown = {}, address = freshAddress()): Promise<string> => {
    const response = await api("/api/assessment/session", json(body, { "x-nf-client-connection-ip": address }));
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  };
  const answer = (sessionId: string, questionNumber: unknown, value: unknown) =>
    api("/api/assessment/response", json({ sessionId, questionNumber, answer: value }));
  const answerAll = async (sessionId: string, answers: Answers) => {
    for (const n of QUESTION_NUMBERS) expect((await answer(sessionId, n, answers[n])).status).toBe(200);
  };
  const complete = (sessionId: string, body: unknown = { name: "Ada", email: "ada@example.com" }) =>
    api(`/api/assessment/session/${sessionId}/complete`, json(body));
  const storedSession = async (id: string) =>
    (await database.db.select().from(assessmentSessions).where(eq(assessmentSessions.id, id)))[0]!;
  const storedAnswers = (id: string) =>
    database.db.select().from(assessmentResponses).where(eq(assessmentResponses.sessionId, id));
  const expectError = async (response: Response, status: number, code: string, message?: RegExp) => {
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const body = (await response.json()) as ErrorBody;
    expect(body.error.code).toBe(code);
    if (message) expect(body.error.message).toMatch(message);
  };

  describe("POST /api/assessment/session", () => {
    it("answers an unguessable id and ignores any completed, score or breakdown the client sends", async () => {
      const id = await start({ userId: 7, completed: "true", score: 60, scoreBreakdown: { level: "Self-Authored" } });
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(await storedSession(id)).toMatchObject({ completed: "false", score: null, scoreBreakdown: null, userId: null, completedAt: null });
      expect(await start()).not.toBe(id);
    });

    it(`limits each client address to ${SESSION_LIMIT.max} sessions per ${SESSION_LIMIT.windowMs / 60000} minutes, with Retry-After`, async () => {
      const address = freshAddress();
      for (let i = 0; i < SESSION_LIMIT.max; i++) await start({}, address);
      const refused = await api("/api/assessment/session", json({}, { "x-nf-client-connection-ip": address }));
      await expectError(refused, 429, "rate_limited", /Try again in/);
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(SESSION_LIMIT.windowMs / 1000);
      await start({}, freshAddress()); // another address is not affected
    });

    it("refuses a request from another site and a body that is not JSON", async () => {
      await expectError(await api("/api/assessment/session", json({}, { origin: "https://evil.example" })), 403, "cross_site");
      await expectError(
        await api("/api/assessment/session", { method: "POST", headers: { "content-type": "text/plain" }, body: "{}" }),
        415,
        "unsupported_media_type",
      );
      await expectError(await api("/api/assessment/session", json([1, 2])), 400, "bad_request");
    });

    it("answers 405 to GET", async () => {
      const response = await api("/api/assessment/session");
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
    });
  });

  describe("POST /api/assessment/response", () => {
    it("stores an answer, and a second answer to the same question replaces the first", async () => {
      const id = await start();
      const first = await answer(id, 4, "B");
      expect(first.status).toBe(200);
      expect(await first.json()).toEqual({ sessionId: id, questionNumber: 4, answer: "B" });
      expect((await answer(id, 4, "D")).status).toBe(200);
      expect((await answer(id, 5, "A")).status).toBe(200);
      const rows = await storedAnswers(id);
      expect(rows.map((r) => [r.questionNumber, r.answer]).sort()).toEqual([
        [4, "D"],
        [5, "A"],
      ]);
    });

    it.each<[string, Record<string, unknown>, RegExp]>([
      ["a question number of 0", { questionNumber: 0 }, /^questionNumber: must be a whole number from 1 to 15/],
      ["a question number of 16", { questionNumber: 16 }, /^questionNumber: /],
      ["a fractional question number", { questionNumber: 1.5 }, /^questionNumber: /],
      ["a question number as text", { questionNumber: "3" }, /^questionNumber: /],
      ["an answer E", { answer: "E" }, /^answer: must be one of A, B, C or D/],
      ["a lowercase answer", { answer: "a" }, /^answer: /],
      ["no answer", { answer: undefined }, /^answer: /],
      ["a session id that is not a UUID", { sessionId: "1" }, /^sessionId: /],
      ["no session id", { sessionId: undefined }, /^sessionId: is required/],
    ])("answers 400 naming the field for %s", async (_name, change, message) => {
      const id = await start();
      const body = { sessionId: id, questionNumber: 1, answer: "A", ...change };
      await expectError(await api("/api/assessment/response", json(body)), 400, "bad_request", message);
      expect(await storedAnswers(id)).toEqual([]);
    });

    it("answers 404 for an unknown session", async () => {
      await expectError(await answer(crypto.randomUUID(), 1, "A"), 404, "not_found", /Start a new scan/);
    });

    it("answers 409 once the session is completed, and keeps the stored answer", async () => {
      const id = await start();
      await answerAll(id, answersForTotal(content, 30));
      expect((await complete(id)).status).toBe(200);
      const before = (await storedAnswers(id)).find((r) => r.questionNumber === 1)!.answer;
      await expectError(await answer(id, 1, before === "A" ? "B" : "A"), 409, "conflict", /already completed/);
      expect((await storedAnswers(id)).find((r) => r.questionNumber === 1)!.answer).toBe(before);
    });

    it("stores each question exactly once when answers arrive at the same time, repeats included", async () => {
      const id = await start();
      const sends = QUESTION_NUMBERS.flatMap((n) => [answer(id, n, "A"), answer(id, n, "C")]);
      const statuses = (await Promise.all(sends)).map((r) => r.status);
      expect(statuses.every((s) => s === 200)).toBe(true);
      const rows = await storedAnswers(id);
      expect(rows.map((r) => r.questionNumber).sort((a, b) => a - b)).toEqual([...QUESTION_NUMBERS]);
    });
  });

  describe("POST /api/assessment/session/{id}/complete", () => {
    it("scores the stored answers on the server and stores the result and breakdown", async () => {
      const id = await start();
      const answers = answersForTotal(content, 41);
      await answerAll(id, answers);
      const response = await complete(id, { name: "  Ada Lovelace  ", email: " ada@example.com " });
      expect(response.status).toBe(200);
      const expected = scoreAnswers(content, answers);
      expect(await response.json()).toEqual({
        totalScore: 41,
        level: expected.level,
        description: expected.band.description,
        scale: scoreScale(content),
        resultUrl: expect.stringMatching(/^\/assessment\/result#[A-Za-z0-9_-]{43}$/),
      });
      const row = await storedSession(id);
      expect(row).toMatchObject({ name: "Ada Lovelace", email: "ada@example.com", completed: "true", score: 41 });
      expect(row.completedAt).toBeInstanceOf(Date);
      expect(row.scoreBreakdown).toEqual({ level: expected.level, totalScore: 41, categoryScores: expected.categoryScores });
      expect(Object.keys(expected.categoryScores).sort()).toEqual(content.dimensions.map((d) => d.id).sort());
    });

    it("uses the last answer given to a question", async () => {
      const id = await start();
      await answerAll(id, answersForTotal(content, 15));
      const q1 = content.questions[0]!;
      await answer(id, 1, q1.options.find((o) => o.points === 4)!.value);
      expect(((await (await complete(id)).json()) as { totalScore: number }).totalScore).toBe(18);
    });

    it("answers 400 naming the questions still unanswered, and completes nothing", async () => {
      const id = await start();
      const answers = answersForTotal(content, 30);
      for (const n of QUESTION_NUMBERS.filter((n) => n !== 3 && n !== 15)) await answer(id, n, answers[n]);
      await expectError(await complete(id), 400, "unanswered_questions", /questions 3 and 15 are still unanswered/);
      await answer(id, 3, answers[3]);
      await expectError(await complete(id), 400, "unanswered_questions", /question 15 is still unanswered/);
      expect(await storedSession(id)).toMatchObject({ completed: "false", score: null, name: null });
    });

    it.each<[string, Record<string, unknown>, RegExp]>([
      ["a blank name", { name: "   " }, /^name: is required/],
      ["no name", { name: undefined }, /^name: is required/],
      ["a blank email", { email: "  " }, /^email: is required/],
      ["an email without a dot after the at sign", { email: "ada@example" }, /^email: must look like/],
      ["an email with a space", { email: "ada lovelace@example.com" }, /^email: must look like/],
      ["a name over 100 characters", { name: "x".repeat(101) }, /^name: must be at most 100 characters/],
      ["an email over 254 characters", { email: `${"x".repeat(250)}@example.com` }, /^email: must be at most 254 characters/],
    ])("answers 400 naming the field for %s", async (_name, change, message) => {
      const id = await start();
      await answerAll(id, answersForTotal(content, 30));
      await expectError(await complete(id, { name: "Ada", email: "ada@example.com", ...change }), 400, "bad_request", message);
      expect((await storedSession(id)).completed).toBe("false");
    });

    it("answers 404 for an unknown session or an id that is not a UUID", async () => {
      await expectError(await complete(crypto.randomUUID()), 404, "not_found");
      await expectError(await complete("not-a-uuid"), 404, "not_found");
    });

    it("completing twice answers the same result and changes nothing stored", async () => {
      const id = await start();
      await answerAll(id, answersForTotal(content, 52));
      const first = await (await complete(id, { name: "Ada", email: "ada@example.com" })).json();
      const stored = await storedSession(id);
      const again = await complete(id, { name: "Someone Else", email: "else@example.com" });
      expect(again.status).toBe(200);
      expect(await again.json()).toEqual(first);
      expect(await storedSession(id)).toEqual(stored);
    });

    it("two completions at the same time store one result and both answer it", async () => {
      const id = await start();
      await answerAll(id, answersForTotal(content, 27));
      const [a, b] = await Promise.all([
        complete(id, { name: "First", email: "first@example.com" }),
        complete(id, { name: "Second", email: "second@example.com" }),
      ]);
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(await a.json()).toEqual(await b.json());
      expect(["First", "Second"]).toContain((await storedSession(id)).name);
    });
  });
});
