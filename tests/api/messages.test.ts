/**
 * The direct line on the server (issue 43): only a code's own sessions read or write its
 * conversation, admin routes need an admin; messages are ciphertext in and out, each at the next
 * sequence (of two sent at once, one is kept), sealed to the current keys; the tier's window sets
 * when an answer is due, a reply or "no reply needed" stops it; the per-code limit; codes without
 * a direct line refused; webhook events without words; tasks; the export; retention. On PGlite,
 * and on PostgreSQL through pg and Neon. Messages are sealed here as the browsers seal them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNotebook, lockAway } from "../../src/lib/notebook/crypto.ts";
import { conversationKey, MESSAGING_VAULT, newKeyPair, openMessage, sealMemberKey, sealMessage, sealPin, type Sender } from "../../src/lib/messages/crypto.ts";
import { eq, sql } from "../../src/server/db/orm.ts";
import { accessCodes, leadWebhooks, messages, rateLimitCounters, webhookDeliveries } from "../../src/server/db/schema.ts";
import { runRetention } from "../../src/server/maintenance/retention.ts";
import { MESSAGE_LIMIT } from "../../src/server/messages/direct-line.ts";
import { issueAccessCode, setAccessCodeActive } from "../../src/server/repositories/access-codes.ts";
import { adminLogin } from "../support/admin.ts";
import { apiClient, type Api } from "../support/api.ts";
import { cookieOf, jsonPost } from "../support/auth.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";

const WORDS = "The grey heron waits where the reeds thin out";

// The operator's key pair and one notebook key for the file's members (each derivation costs about half a second).
const operatorPair = newKeyPair();
const notebookKeys = createNotebook("a member's notebook passphrase");

describe.each(databaseTargets())("the direct line on $name", (target) => {
  let database: TestDatabase;
  let api: Api;
  let admin: string;
  beforeAll(async () => {
    database = await target.open();
    api = await apiClient(database);
    admin = (await adminLogin(api, database.db)).cookie;
  });
  afterAll(() => database?.dispose());

  const call = (path: string, cookie: string, method = "GET", body?: unknown) =>
    api(path, { method, headers: { cookie, ...(body === undefined ? {} : { "content-type": "application/json" }) }, body: body === undefined ? undefined : JSON.stringify(body) });

  /** The operator's key made in the panel (once per database). */
  let operatorReady: Promise<string> | undefined;
  function operator(): Promise<string> {
    operatorReady ??= (async () => {
      const pair = await operatorPair;
      const { wrapped } = await lockAway(MESSAGING_VAULT, pair.privateKey, "the operator's passphrase");
      const made = await call("/api/admin/messaging-key", admin, "POST", { publicKey: pair.publicKey, ...wrapped });
      expect(made.status, await made.clone().text()).toBe(201);
      return pair.publicKey;
    })();
    return operatorReady;
  }

  /** A member of `level` with a notebook and a messaging key in it, signed in. */
  async function member(level: "Architect" | "Mastermind" | "Operator" = "Architect") {
    const code = await issueAccessCode(database.db, { level });
    const signedIn = await api("/api/auth/validate", jsonPost({ login: code.login, password: code.password }));
    expect(signedIn.status).toBe(200);
    const cookie = cookieOf(signedIn);
    const { key, wrapped } = await notebookKeys;
    const created = await call("/api/notebook", cookie, "POST", wrapped);
    const notebook = ((await created.json()) as { notebook: { id: string } }).notebook.id;
    const pair = await newKeyPair();
    const operatorKey = await operator();
    const kept = await call("/api/messages/keys", cookie, "PUT", {
      notebook,
      publicKey: pair.publicKey,
      privateKey: await sealMemberKey(key, notebook, pair.privateKey),
      pin: await sealPin(key, notebook, operatorKey),
    });
    expect(kept.status, await kept.clone().text()).toBe(200);
    return { code, cookie, pair, operatorKey };
  }
  type Member = Awaited<ReturnType<typeof member>>;

  /** The conversation's key as `side` derives it. */
  async function keyOf(one: Member, conversation: string, side: Sender) {
    const binding = { conversation, memberKey: one.pair.publicKey, operatorKey: one.operatorKey };
    return side === "member" ? conversationKey(one.pair.privateKey, one.operatorKey, binding) : conversationKey((await operatorPair).privateKey, one.pair.publicKey, binding);
  }

  /** The member's conversation id (made before their first message, or by the operator to write first). */
  async function conversationOf(one: Member): Promise<string> {
    const made = await call("/api/messages/conversation", one.cookie, "POST");
    expect(made.status).toBe(200);
    const id = ((await made.json()) as { id: string }).id;
    // The same one the operator reaches by the code's login.
    expect(((await (await call("/api/admin/conversations", admin, "POST", { login: one.code.login })).json()) as { id: string }).id).toBe(id);
    return id;
  }

  async function send(one: Member, side: Sender, sequence: number, text: string, extra: Record<string, unknown> = {}, known?: string) {
    const conversation = known ?? (await conversationOf(one));
    const sealed = await sealMessage(await keyOf(one, conversation, side), { conversation, sender: side, sequence }, { text });
    const body = { sequence, memberKey: one.pair.publicKey, operatorKey: one.operatorKey, ...sealed, ...extra };
    return side === "member" ? call("/api/messages", one.cookie, "POST", body) : call(`/api/admin/conversations/${conversation}/messages`, admin, "POST", body);
  }

  it("answers only a member about their own conversation, and only an admin on the operator's side", async () => {
    for (const [path, method] of [["/api/messages", "GET"], ["/api/messages/read", "PUT"], ["/api/messages/tasks/1/done", "PUT"]] as const) {
      expect((await api(path, { method, headers: method === "PUT" ? { "content-type": "application/json" } : {}, body: method === "PUT" ? JSON.stringify({ through: 1 }) : undefined })).status, path).toBe(401);
    }
    const one = await member();
    for (const path of ["/api/admin/conversations", "/api/admin/messaging-key", "/api/admin/messaging-settings"]) {
      expect((await call(path, one.cookie)).status, path).toBe(403);
      expect((await api(path)).status, path).toBe(401);
    }
    expect((await send(one, "member", 1, "a first question")).status).toBe(201);
    // Another member sees nothing of it, and cannot name it.
    const other = await member();
    const theirs = (await (await call("/api/messages", other.cookie)).json()) as { conversation: unknown; messages: unknown[] };
    expect(theirs).toMatchObject({ conversation: null, messages: [] });
    const conversation = await conversationOf(one);
    expect((await call(`/api/admin/conversations/${conversation}`, other.cookie)).status).toBe(403);
  });

  it("keeps ciphertext only, opened by both ends; starts the tier's window, stopped by a reply; marks read; counts unread in the session answer", async () => {
    const one = await member("Architect");
    const before = Date.now();
    const sent = await send(one, "member", 1, WORDS);
    expect(sent.status, await sent.clone().text()).toBe(201);
    const { conversation } = (await sent.json()) as { conversation: { id: string; dueAt: string; windowHours: number } };
    expect(conversation.windowHours).toBe(24);
    const due = Date.parse(conversation.dueAt) - before;
    expect(due).toBeGreaterThan(23.9 * 3600_000);
    expect(due).toBeLessThan(24.1 * 3600_000);
    const [row] = await database.db.select().from(messages).where(eq(messages.conversationId, conversation.id));
    expect(JSON.stringify(row)).not.toContain("heron");

    // A second message while waiting keeps the first one's due time.
    expect((await send(one, "member", 2, "and one more thing")).status).toBe(201);
    const inbox = (await (await call("/api/admin/conversations", admin)).json()) as { conversations: Array<{ id: string; login: string; tier: string; dueAt: string; unread: number; last: { sequence: number; iv: string; ciphertext: string } }>; waiting: number };
    const entry = inbox.conversations.find((c) => c.id === conversation.id)!;
    expect(entry).toMatchObject({ login: one.code.login, tier: "Architect", dueAt: conversation.dueAt, unread: 2 });
    expect(inbox.waiting).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(inbox)).not.toContain("heron");
    expect((await openMessage(await keyOf(one, conversation.id, "operator"), { conversation: conversation.id, sender: "member", sequence: 2 }, entry.last)).text).toBe("and one more thing");

    // The operator reads and replies: the wait stops, the member has one unread.
    expect((await call(`/api/admin/conversations/${conversation.id}/read`, admin, "PUT", { through: 2 })).status).toBe(200);
    const reply = await send(one, "operator", 3, "Write its first sentence down.");
    expect(reply.status, await reply.clone().text()).toBe(201);
    expect(((await reply.json()) as { conversation: { dueAt: string | null; settled: string } }).conversation).toMatchObject({ dueAt: null, settled: "answered" });
    expect(((await (await call("/api/auth/session", one.cookie)).json()) as { unreadMessages: number }).unreadMessages).toBe(1);
    const mine = (await (await call("/api/messages", one.cookie)).json()) as { messages: Array<{ sequence: number; sender: string; readAt: string | null; iv: string; ciphertext: string }> };
    expect(mine.messages.map((m) => [m.sequence, m.sender, m.readAt !== null])).toEqual([
      [1, "member", true],
      [2, "member", true],
      [3, "operator", false],
    ]);
    expect((await openMessage(await keyOf(one, conversation.id, "member"), { conversation: conversation.id, sender: "operator", sequence: 3 }, mine.messages[2]!)).text).toBe("Write its first sentence down.");
    expect((await call("/api/messages/read", one.cookie, "PUT", { through: 3 })).status).toBe(200);
    expect(((await (await call("/api/auth/session", one.cookie)).json()) as { unreadMessages: number }).unreadMessages).toBe(0);
  });

  it("of messages sent at once at one sequence keeps exactly one; refuses a message sealed to another key", async () => {
    const one = await member("Mastermind");
    expect((await send(one, "member", 1, "first")).status).toBe(201);
    const racing = await Promise.all(Array.from({ length: 5 }, (_, i) => send(one, "member", 2, `device ${i}`)));
    expect(racing.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409, 409]);
    const refused = (await racing.find((answer) => answer.status === 409)!.json()) as { error: { code: string; last: number } };
    expect(refused.error).toMatchObject({ code: "sequence_taken", last: 2 });
    // The Mastermind window.
    const state = (await (await call("/api/messages", one.cookie)).json()) as { conversation: { windowHours: number } };
    expect(state.conversation.windowHours).toBe(12);
    // Sealed to a key that is not the operator's: refused, nothing written.
    const stranger = await newKeyPair();
    const conversation = await conversationOf(one);
    const sealed = await sealMessage(await keyOf(one, conversation, "member"), { conversation, sender: "member", sequence: 3 }, { text: "x" });
    const wrong = await call("/api/messages", one.cookie, "POST", { sequence: 3, memberKey: one.pair.publicKey, operatorKey: stranger.publicKey, ...sealed });
    expect(wrong.status).toBe(409);
    expect(((await wrong.json()) as { error: { code: string; operatorKey: string } }).error).toMatchObject({ code: "operator_key_changed", operatorKey: one.operatorKey });
    const count = (await database.db.execute(sql`SELECT count(*)::integer AS n FROM ${messages} WHERE conversation_id = ${conversation}::uuid`)) as unknown as { rows: Array<{ n: number }> };
    expect(Number(count.rows[0]!.n)).toBe(2);
  });

  it("refuses bad input with a clear 4xx, a member past the hour's limit with 429, and codes without a direct line", async () => {
    const one = await member();
    const conversation = await conversationOf(one);
    const sealed = await sealMessage(await keyOf(one, conversation, "member"), { conversation, sender: "member", sequence: 1 }, { text: "ok" });
    const base = { sequence: 1, memberKey: one.pair.publicKey, operatorKey: one.operatorKey, ...sealed };
    for (const [body, status] of [
      [{ ...base, sequence: 0 }, 400],
      [{ ...base, iv: "short" }, 400],
      [{ ...base, memberKey: "AAAA" }, 400],
      [{ ...base, ciphertext: "not*base64" }, 400],
      [{ ...base, ciphertext: "A".repeat(200_000) }, 413],
      [{ ...base, sequence: 5 }, 409],
    ] as const) {
      const answer = await call("/api/messages", one.cookie, "POST", body);
      expect(answer.status, JSON.stringify(body).slice(0, 60)).toBe(status);
      expect(((await answer.json()) as { error: { message: string } }).error.message.length).toBeGreaterThan(5);
    }
    // The hour's limit, counted in the database: past it, 429 and nothing written.
    const id = (await database.db.select({ id: accessCodes.id }).from(accessCodes).where(eq(accessCodes.login, one.code.login)))[0]!.id;
    await database.db
      .insert(rateLimitCounters)
      .values({ bucket: MESSAGE_LIMIT.bucket, key: String(id), windowStart: new Date(), count: MESSAGE_LIMIT.max })
      .onConflictDoUpdate({ target: [rateLimitCounters.bucket, rateLimitCounters.key], set: { count: MESSAGE_LIMIT.max, windowStart: new Date() } });
    const limited = await send(one, "member", 1, "one too many");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await database.db.select().from(messages).where(eq(messages.conversationId, conversation))).toEqual([]);

    // An Operator-level code (issued before they were refused) has no direct line.
    const operatorLevel = await member("Operator");
    const refused = await send(operatorLevel, "member", 1, "hello?");
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("no_direct_line");
    // An ended code: the operator's message to it is refused, nothing half-written.
    const ended = await member();
    const endedConversation = await conversationOf(ended);
    await setAccessCodeActive(database.db, ended.code.login, false);
    const toEnded = await send(ended, "operator", 1, "Are you still there?", {}, endedConversation);
    expect(toEnded.status).toBe(409);
    expect(((await toEnded.json()) as { error: { code: string } }).error.code).toBe("code_ended");
    expect(await database.db.select().from(messages).where(eq(messages.conversationId, endedConversation))).toEqual([]);
  });

  it("follows the operator's windows, stops a wait with 'no reply needed', sends tasks the member marks done, and deletes a conversation", async () => {
    expect((await call("/api/admin/messaging-settings", admin, "PUT", { architectHours: 0, mastermindHours: 12 })).status).toBe(400);
    expect((await call("/api/admin/messaging-settings", admin, "PUT", { architectHours: 6, mastermindHours: 3 })).status).toBe(200);
    try {
      const one = await member("Architect");
      const before = Date.now();
      const sent = (await (await send(one, "member", 1, "quick one")).json()) as { conversation: { id: string; dueAt: string } };
      expect(Math.round((Date.parse(sent.conversation.dueAt) - before) / 3600_000)).toBe(6);
      expect((await call(`/api/admin/conversations/${sent.conversation.id}/no-reply`, admin, "PUT")).status).toBe(200);
      const after = (await (await call(`/api/admin/conversations/${sent.conversation.id}`, admin)).json()) as { conversation: { dueAt: string | null; settled: string } };
      expect(after.conversation).toMatchObject({ dueAt: null, settled: "no_reply" });

      // A task, due in a week; the member marks it done.
      const task = await send(one, "operator", 2, "Each evening this week, note one reaction.", { kind: "task", taskDue: new Date(Date.now() + 7 * 86400_000).toISOString() });
      expect(task.status, await task.clone().text()).toBe(201);
      let entry = ((await (await call("/api/admin/conversations", admin)).json()) as { conversations: Array<{ id: string; openTasks: number; doneTasks: number }> }).conversations.find((c) => c.id === sent.conversation.id)!;
      expect(entry).toMatchObject({ openTasks: 1, doneTasks: 0 });
      expect((await call("/api/messages/tasks/2/done", one.cookie, "PUT")).status).toBe(200);
      expect((await call("/api/messages/tasks/1/done", one.cookie, "PUT")).status).toBe(404);
      entry = ((await (await call("/api/admin/conversations", admin)).json()) as { conversations: Array<{ id: string; openTasks: number; doneTasks: number }> }).conversations.find((c) => c.id === sent.conversation.id)!;
      expect(entry).toMatchObject({ openTasks: 0, doneTasks: 1 });

      expect((await call(`/api/admin/conversations/${sent.conversation.id}`, admin, "DELETE")).status).toBe(200);
      expect((await call(`/api/admin/conversations/${sent.conversation.id}`, admin)).status).toBe(404);
      expect(((await (await call("/api/messages", one.cookie)).json()) as { messages: unknown[] }).messages).toEqual([]);
    } finally {
      await call("/api/admin/messaging-settings", admin, "PUT", { architectHours: 24, mastermindHours: 12 });
    }
  });

  it("tells the webhooks of a message and of the day's overdue conversations, never their words; the export carries them; retention takes them 30 days after the code ends", async () => {
    const [hook] = await database.db.insert(leadWebhooks).values({ url: "http://127.0.0.1:9/hook", secret: "s".repeat(40) }).returning();
    try {
      const one = await member("Mastermind");
      const sent = (await (await send(one, "member", 1, WORDS)).json()) as { conversation: { id: string; dueAt: string } };
      const queued = await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hook!.id));
      expect(queued).toHaveLength(1);
      expect(queued[0]!.kind).toBe("message");
      expect(JSON.parse(queued[0]!.body)).toMatchObject({ event: "message.received", conversation: sent.conversation.id, tier: "Mastermind", dueAt: sent.conversation.dueAt });
      expect(queued[0]!.body).not.toContain("heron");

      // Overdue a day later: named in one event.
      const report = await runRetention(database.db, { now: new Date(Date.now() + 86400_000) });
      expect(report.overdueConversations).toBeGreaterThanOrEqual(1);
      const daily = (await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hook!.id))).map((d) => JSON.parse(d.body) as { event: string; conversations?: Array<{ conversation: string }> });
      const overdue = daily.find((d) => d.event === "messages.overdue")!;
      expect(overdue.conversations!.map((c) => c.conversation)).toContain(sent.conversation.id);

      // The member's download (with the code and password, also once it has ended) carries the conversation, sealed.
      await setAccessCodeActive(database.db, one.code.login, false);
      const exported = await api("/api/notebook/export", jsonPost({ login: one.code.login, password: one.code.password }, { "x-nf-client-connection-ip": "198.51.100.201" }));
      expect(exported.status).toBe(200);
      const body = (await exported.json()) as { conversation: { id: string; keys: { publicKey: string }; messages: Array<{ iv: string; ciphertext: string }> } };
      expect(body.conversation.keys.publicKey).toBe(one.pair.publicKey);
      expect((await openMessage(await keyOf(one, body.conversation.id, "member"), { conversation: body.conversation.id, sender: "member", sequence: 1 }, body.conversation.messages[0]!)).text).toBe(WORDS);

      // 31 days after the end, the retention job takes it.
      await database.db.update(accessCodes).set({ deactivatedAt: new Date(Date.now() - 31 * 86400_000) }).where(eq(accessCodes.login, one.code.login));
      expect((await runRetention(database.db)).conversations).toBeGreaterThanOrEqual(1);
      expect(await database.db.select().from(messages).where(eq(messages.conversationId, sent.conversation.id))).toEqual([]);
    } finally {
      await database.db.delete(leadWebhooks).where(eq(leadWebhooks.id, hook!.id));
    }
  });
});
