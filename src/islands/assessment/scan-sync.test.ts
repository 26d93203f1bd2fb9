import { describe, expect, it } from "vitest";
import { ApiError } from "../../lib/api-client.ts";
import { QUESTION_NUMBERS, type Answer } from "../../lib/assessment/model.ts";
import { SCAN_STORAGE_KEY, readScan } from "./scan-storage.ts";
import { ScanSync, type ApiCall } from "./scan-sync.ts";

/** A fake scan API with the real one's rules, and switches to make calls fail. */
class FakeServer {
  sessions = new Map<string, { completed: boolean; answers: Map<number, Answer> }>();
  calls: string[] = [];
  /** Failures to answer next, in order: a status, or 0 for a network error. */
  failures: number[] = [];
  private seq = 0;

  bodies: unknown[] = [];

  request: ApiCall = async <T>(method: string, url: string, body?: unknown): Promise<T> => {
    this.calls.push(`${method} ${url}`);
    this.bodies.push(body);
    const failure = this.failures.shift();
    if (failure === 0) throw new TypeError("Failed to fetch");
    if (failure) throw new ApiError(failure, "x", "x");
    if (url === "/api/assessment/session") {
      const id = `s${++this.seq}`;
      this.sessions.set(id, { completed: false, answers: new Map() });
      return { id } as T;
    }
    if (url === "/api/assessment/response") {
      const { sessionId, questionNumber, answer } = body as { sessionId: string; questionNumber: number; answer: Answer };
      const session = this.sessions.get(sessionId);
      if (!session) throw new ApiError(404, "unknown");
      if (session.completed) throw new ApiError(409, "completed");
      session.answers.set(questionNumber, answer);
      return {} as T;
    }
    const id = /session\/([^/]+)\/complete$/.exec(url)![1]!;
    const session = this.sessions.get(id);
    if (!session) throw new ApiError(404, "unknown");
    const missing = QUESTION_NUMBERS.filter((n) => !session.answers.has(n));
    if (missing.length > 0) throw new ApiError(400, `${missing}`, "unanswered_questions");
    session.completed = true;
    return { totalScore: 15, level: "Default Mode", description: "d" } as T;
  };
}

class MemoryStore {
  items = new Map<string, string>();
  getItem = (key: string) => this.items.get(key) ?? null;
  setItem = (key: string, value: string) => void this.items.set(key, value);
  removeItem = (key: string) => void this.items.delete(key);
}

const setup = () => {
  const server = new FakeServer();
  const store = new MemoryStore();
  const sleeps: number[] = [];
  const sync = new ScanSync({ request: server.request, store, sleep: async (ms) => void sleeps.push(ms) });
  return { server, store, sync, sleeps };
};

const answerEverything = (sync: ScanSync) => QUESTION_NUMBERS.forEach((n) => sync.choose(n, "A"));

describe("ScanSync", () => {
  it("creates one session however many callers ask at once", async () => {
    const { server, sync } = setup();
    expect(await Promise.all([sync.ensureSession(), sync.ensureSession()])).toEqual([true, true]);
    expect(server.sessions.size).toBe(1);
  });

  it("starts a session with the spec's payload, and sends it once even when it fails", async () => {
    const { server, sync } = setup();
    server.failures = [0];
    expect(await sync.ensureSession()).toBe(false);
    expect(server.calls).toEqual(["POST /api/assessment/session"]);
    expect(await sync.ensureSession()).toBe(true);
    expect(server.bodies.at(-1)).toEqual({ userId: null, completed: "false", score: null, scoreBreakdown: null });
    expect(server.sessions.size).toBe(1);
  });

  it("saves an answer and remembers it in sessionStorage", async () => {
    const { server, store, sync } = setup();
    sync.choose(3, "C");
    sync.goTo(2);
    expect(await sync.save(3)).toBe(true);
    expect(server.sessions.get(sync.sessionId!)!.answers.get(3)).toBe("C");
    expect(readScan(store)).toEqual({ sessionId: sync.sessionId, index: 2, answers: { 3: "C" }, confirmed: [3] });
  });

  it("retries a failed save twice with backoff", async () => {
    const { server, sync, sleeps } = setup();
    await sync.ensureSession();
    sync.choose(1, "B");
    server.failures = [0, 503];
    expect(await sync.save(1)).toBe(true);
    expect(sleeps).toEqual([500, 1500]);
    expect(sync.isConfirmed(1)).toBe(true);
  });

  it("reports a save that still fails after the retries, and keeps the answer unconfirmed", async () => {
    const { server, sync } = setup();
    await sync.ensureSession();
    sync.choose(1, "B");
    server.failures = [0, 0, 0];
    expect(await sync.save(1)).toBe(false);
    expect(sync.unconfirmed()).toEqual([1]);
  });

  it("does not retry a save the server refuses as invalid", async () => {
    const { server, sync, sleeps } = setup();
    await sync.ensureSession();
    sync.choose(1, "B");
    server.failures = [400];
    expect(await sync.save(1)).toBe(false);
    expect(sleeps).toEqual([]);
  });

  it("changing an answer makes it unconfirmed until saved again", async () => {
    const { sync } = setup();
    sync.choose(2, "A");
    await sync.save(2);
    sync.choose(2, "D");
    expect(sync.unconfirmed()).toEqual([2]);
  });

  it("sends every unconfirmed answer before completing", async () => {
    const { server, store, sync } = setup();
    answerEverything(sync);
    await sync.save(1); // only one was saved along the way
    server.failures = [];
    const result = await sync.complete({ name: "Ada", email: "ada@example.com" });
    expect(result.level).toBe("Default Mode");
    const session = [...server.sessions.values()][0]!;
    expect(session.completed).toBe(true);
    expect(session.answers.size).toBe(15);
    expect(store.items.has(SCAN_STORAGE_KEY)).toBe(false);
  });

  it("refuses to complete when an answer cannot be stored", async () => {
    const { server, sync } = setup();
    answerEverything(sync);
    await sync.ensureSession();
    server.failures = [0, 0, 0];
    await expect(sync.complete({ name: "Ada", email: "ada@example.com" })).rejects.toThrow();
    expect(server.calls.filter((c) => c.endsWith("/complete"))).toEqual([]);
    expect(sync.answers[1]).toBe("A"); // the scan is kept for another try
  });

  it("re-sends everything once when the server says answers are missing", async () => {
    const { server, sync } = setup();
    answerEverything(sync);
    await sync.flush();
    server.sessions.get(sync.sessionId!)!.answers.delete(7); // lost on the server side
    await expect(sync.complete({ name: "Ada", email: "ada@example.com" })).resolves.toMatchObject({ totalScore: 15 });
    expect(server.sessions.get([...server.sessions.keys()][0]!)!.answers.get(7)).toBe("A");
  });

  it("moves the answers to a new session when the server no longer knows the session", async () => {
    const { server, sync } = setup();
    sync.choose(1, "A");
    sync.choose(2, "B");
    await sync.save(1);
    const first = sync.sessionId!;
    server.sessions.delete(first);
    expect(await sync.save(2)).toBe(true);
    expect(sync.sessionId).not.toBe(first);
    const answers = server.sessions.get(sync.sessionId!)!.answers;
    expect([...answers.entries()].sort()).toEqual([
      [1, "A"],
      [2, "B"],
    ]);
  });

  it.each([[503], [502], [0]])("sends a completion once when it fails with %i (mutations are never retried), and keeps the scan", async (failure) => {
    const { server, sync, sleeps } = setup();
    answerEverything(sync);
    await sync.flush();
    server.calls.length = 0;
    server.failures = [failure];
    await expect(sync.complete({ name: "Ada", email: "ada@example.com" })).rejects.toThrow();
    expect(server.calls).toEqual([`POST /api/assessment/session/${sync.sessionId}/complete`]);
    expect(sleeps).toEqual([]);
    expect(sync.unconfirmed()).toEqual([]); // the scan is kept: pressing 'Get My Results' again sends it again
    await expect(sync.complete({ name: "Ada", email: "ada@example.com" })).resolves.toMatchObject({ totalScore: 15 });
  });

  describe("resume after a reload", () => {
    it("keeps the stored session, question and answers when the server still takes answers", async () => {
      const first = setup();
      first.sync.choose(1, "A");
      first.sync.choose(2, "C");
      await first.sync.save(1);
      first.sync.goTo(1);
      // the reloaded page reads the same sessionStorage and talks to the same server
      const again = new ScanSync({ request: first.server.request, store: first.store, sleep: async () => {} }, readScan(first.store));
      expect(await again.resume()).toBe("resumed");
      expect(again.index).toBe(1);
      expect(again.answers).toEqual({ 1: "A", 2: "C" });
      expect(again.unconfirmed()).toEqual([]); // the unconfirmed answer was sent
      expect(first.server.sessions.size).toBe(1);
    });

    it.each([
      ["completed", (server: FakeServer, id: string) => (server.sessions.get(id)!.completed = true)],
      ["unknown", (server: FakeServer, id: string) => server.sessions.delete(id)],
    ])("starts afresh when the stored session is %s", async (_name, change) => {
      const first = setup();
      first.sync.choose(1, "A");
      await first.sync.save(1);
      first.sync.goTo(1);
      change(first.server, first.sync.sessionId!);
      const again = new ScanSync({ request: first.server.request, store: first.store, sleep: async () => {} }, readScan(first.store));
      expect(await again.resume()).toBe("restarted");
      expect(again.index).toBe(0);
      expect(again.answers).toEqual({});
      expect(again.sessionId).not.toBe(first.sync.sessionId);
      expect(readScan(first.store)).toMatchObject({ index: 0, answers: {}, sessionId: again.sessionId });
    });
  });
});

describe("readScan", () => {
  it("forgets stored data it cannot read", () => {
    const store = new MemoryStore();
    store.setItem(SCAN_STORAGE_KEY, "{not json");
    expect(readScan(store)).toBeNull();
    expect(store.items.has(SCAN_STORAGE_KEY)).toBe(false);
    store.setItem(SCAN_STORAGE_KEY, JSON.stringify({ v: 1, sessionId: "x", index: 20, answers: {}, confirmed: [] }));
    expect(readScan(store)).toBeNull();
    store.setItem(SCAN_STORAGE_KEY, JSON.stringify({ v: 1, sessionId: "x", index: 0, answers: { 1: "E" }, confirmed: [] }));
    expect(readScan(store)).toBeNull();
    for (const broken of [
      { v: 2, sessionId: "x", index: 0, answers: {}, confirmed: [] },
      { v: 1, sessionId: "", index: 0, answers: {}, confirmed: [] },
      { v: 1, sessionId: "x", index: 1.5, answers: {}, confirmed: [] },
      { v: 1, sessionId: "x", index: 0, answers: { 16: "A" }, confirmed: [] },
      { v: 1, sessionId: "x", index: 0, answers: ["A"], confirmed: [] },
      { v: 1, sessionId: "x", index: 0, answers: {}, confirmed: [0] },
      { v: 1, sessionId: "x", index: 0, answers: {}, confirmed: "1" },
      null,
    ]) {
      store.setItem(SCAN_STORAGE_KEY, JSON.stringify(broken));
      expect(readScan(store), JSON.stringify(broken)).toBeNull();
      expect(store.items.has(SCAN_STORAGE_KEY)).toBe(false);
    }
  });

  it("reads back a scan in progress, answers by question number", () => {
    const store = new MemoryStore();
    store.setItem(SCAN_STORAGE_KEY, JSON.stringify({ v: 1, sessionId: null, index: 14, answers: { 1: "A", 15: "D" }, confirmed: [1, 15] }));
    expect(readScan(store)).toEqual({ sessionId: null, index: 14, answers: { 1: "A", 15: "D" }, confirmed: [1, 15] });
  });
});
