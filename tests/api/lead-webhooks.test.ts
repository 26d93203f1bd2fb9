/**
 * Lead webhooks (issue 15, item 1) against a local receiver: the signed body, retries with
 * backoff on a movable clock, giving up after 24 hours, no second delivery after a 2xx, delivery
 * by a new worker after a stop, two workers at once, and the admin API (test, log, send again).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq } from "../../src/server/db/orm.ts";
import { answersForTotal } from "../../src/lib/assessment/fixtures.ts";
import { loadAssessment } from "../../src/server/assessment/content.ts";
import { openDatabase } from "../../src/server/db/client.ts";
import { assessmentResponses, assessmentSessions, leadWebhooks, webhookDeliveries } from "../../src/server/db/schema.ts";
import { RETRY_WINDOW_MS } from "../../src/server/leads/backoff.ts";
import { workQueue } from "../../src/server/leads/delivery-queue.ts";
import { runRetention, WEBHOOK_LOG_DAYS } from "../../src/server/maintenance/retention.ts";
import type { PhotoStore } from "../../src/server/uploads/photo-store.ts";
import { DELIVERY_HEADER, SIGNATURE_HEADER, verifySignature } from "../../src/server/leads/signature.ts";
import { siteAddress } from "../../src/server/leads/environment.ts";
import type { LeadPayload } from "../../src/server/leads/payload.ts";
import { apiClient, type Api } from "../support/api.ts";
import { adminLogin, asAdmin } from "../support/admin.ts";
import { jsonPost } from "../support/auth.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";

const content = loadAssessment();

describe.each(databaseTargets())("lead webhooks on $name", (target) => {
  let database: TestDatabase;
  let api: Api;
  let cookie: string;
  let receiver: Receiver;

  beforeAll(async () => {
    database = await target.open();
    api = await apiClient(database);
    ({ cookie } = await adminLogin(api, database.db));
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await database?.dispose();
  });
  beforeEach(async () => {
    // Each test starts with no webhook, an empty log and a receiver answering 200.
    await database.db.delete(leadWebhooks);
    receiver.received.length = 0;
    receiver.script = [];
    receiver.otherwise = 200;
    receiver.delayMs = 0;
  });

  const addWebhook = async (url = receiver.url) => {
    const response = await api("/api/admin/webhooks", asAdmin(cookie, "POST", { url }));
    expect(response.status, await response.clone().text()).toBe(201);
    return (await response.json()) as { id: number; url: string; secret: string; active: boolean };
  };

  /** A scan with every answer stored (straight into the database), completed through the API. */
  const completeScan = async (total = 40, name = "Ada Lovelace", email = "ada@example.com") => {
    const [session] = await database.db.insert(assessmentSessions).values({}).returning();
    const answers = answersForTotal(content, total);
    await database.db.insert(assessmentResponses).values(Object.entries(answers).map(([n, answer]) => ({ sessionId: session!.id, questionNumber: Number(n), answer: answer! })));
    const response = await api(`/api/assessment/session/${session!.id}/complete`, jsonPost({ name, email }));
    expect(response.status).toBe(200);
    return { id: session!.id, result: (await response.json()) as { totalScore: number; level: string } };
  };

  const deliveries = () => database.db.select().from(webhookDeliveries).orderBy(webhookDeliveries.id);
  /** Waits until every delivery was tried and none is held by a worker (the attempt made after the answer has ended). */
  const settled = async () => {
    for (let i = 0; i < 500; i++) {
      const rows = await deliveries();
      if (rows.every((d) => d.attempts > 0 && d.leaseUntil === null)) return rows;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error("a delivery stayed claimed");
  };

  it("refuses addresses that are not http(s) to localhost or https, and gives each webhook its own secret", async () => {
    for (const url of ["ftp://example.com/x", "http://example.com/hook", "https://user:pw@example.com/x", "not a url", ""]) {
      const response = await api("/api/admin/webhooks", asAdmin(cookie, "POST", { url }));
      expect(response.status, url).toBe(400);
      // A sentence for the field (issue 22: 6), not a field name and a validator's words.
      const { error } = (await response.json()) as { error: { code: string; message: string } };
      expect(error.code, url).toBe("invalid_webhook_url");
      expect(error.message, url).toMatch(/^[A-Z].*\.$/);
      expect(error.message, url).not.toMatch(/^url:/);
    }
    const a = await addWebhook();
    const b = await addWebhook("https://hooks.example.com/catch/1");
    expect(a.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(b.secret).not.toBe(a.secret);
    const list = (await (await api("/api/admin/webhooks", asAdmin(cookie))).json()) as { id: number }[];
    expect(list.map((w) => w.id)).toEqual([a.id, b.id]);
  });

  it("delivers a completed scan at once, as signed JSON the receiver can verify, and logs it", async () => {
    const hook = await addWebhook();
    const { id, result } = await completeScan(44);
    await receiver.waitFor(1);
    const [request] = receiver.received;
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(verifySignature(hook.secret, request!.headers[SIGNATURE_HEADER] as string, request!.headers[DELIVERY_HEADER] as string, request!.body)).toBe(true);
    expect(verifySignature("whsec_wrong", request!.headers[SIGNATURE_HEADER] as string, request!.headers[DELIVERY_HEADER] as string, request!.body)).toBe(false);
    expect(verifySignature(hook.secret, request!.headers[SIGNATURE_HEADER] as string, request!.headers[DELIVERY_HEADER] as string, request!.body.replace("Ada", "Eve"))).toBe(false);
    const payload = JSON.parse(request!.body) as LeadPayload;
    expect(payload).toMatchObject({ event: "scan.completed", id, name: "Ada Lovelace", email: "ada@example.com", score: 44, level: result.level });
    expect(payload.categories.map((c) => c.id)).toEqual(content.dimensions.map((d) => d.id));
    expect(payload.categories.reduce((n, c) => n + c.score, 0)).toBe(44);
    expect(payload.answers).toHaveLength(15);
    expect(payload.answers[0]).toMatchObject({ question: 1, text: content.questions[0]!.text, answer: expect.stringMatching(/^[ABCD]$/) });
    expect(payload.answers.every((a) => Object.keys(a).join() === "question,text,answer,answerText")).toBe(true); // no points
    expect(payload.submissionUrl).toBe(new URL(`/admin?submission=${id}`, siteAddress()).toString());
    expect(Date.parse(payload.completedAt)).toBeGreaterThan(Date.now() - 60_000);

    const [row] = await settled();
    expect(row).toMatchObject({ status: "delivered", attempts: 1, lastStatus: 200, lastError: null });
    const log = (await (await api("/api/admin/webhook-deliveries", asAdmin(cookie))).json()) as { id: number; status: string; name: string; url: string }[];
    expect(log).toEqual([expect.objectContaining({ id: row!.id, status: "delivered", name: "Ada Lovelace", url: receiver.url })]);
    // Later runs of the queue never send it again.
    await workQueue(database.db, { now: () => new Date(Date.now() + 2 * RETRY_WINDOW_MS) });
    expect(receiver.received).toHaveLength(1);
  });

  it("retries after failures with a growing wait, then delivers once and never again", async () => {
    await addWebhook();
    receiver.script = [500, 502];
    await completeScan();
    await receiver.waitFor(1);
    const [first] = await settled();
    expect(first).toMatchObject({ status: "pending", attempts: 1, lastStatus: 500, lastError: "The receiver answered 500 Internal Server Error." });
    // 30 s after the failure was recorded (the attempt itself took a few milliseconds).
    const failedAt = first!.nextAttemptAt.getTime() - 30_000;
    expect(failedAt - first!.lastAttemptAt!.getTime()).toBeGreaterThanOrEqual(0);
    expect(failedAt - first!.lastAttemptAt!.getTime()).toBeLessThan(5_000);

    const at = (ms: number) => ({ now: () => new Date(failedAt + ms) });
    await workQueue(database.db, at(29_000)); // not due yet
    expect(receiver.received).toHaveLength(1);
    await workQueue(database.db, at(30_000)); // second attempt: 502, next in 60 s
    expect(receiver.received).toHaveLength(2);
    const [second] = await deliveries();
    expect(second).toMatchObject({ status: "pending", attempts: 2, lastStatus: 502 });
    expect(second!.nextAttemptAt.getTime() - (failedAt + 30_000)).toBe(60_000);
    await workQueue(database.db, at(89_000));
    expect(receiver.received).toHaveLength(2);
    await workQueue(database.db, at(90_000)); // third attempt: 200
    expect(receiver.received).toHaveLength(3);
    expect(await deliveries()).toEqual([expect.objectContaining({ status: "delivered", attempts: 3, lastStatus: 200, lastError: null })]);
    // The same body each time, each freshly signed.
    expect(new Set(receiver.received.map((r) => r.body)).size).toBe(1);
    for (const later of [100_000, 3_600_000, RETRY_WINDOW_MS]) await workQueue(database.db, at(later));
    expect(receiver.received).toHaveLength(3);
  });

  it("counts a timeout and a refused connection as failures, and gives up after 24 hours; send again delivers it", async () => {
    const hook = await addWebhook();
    receiver.otherwise = 503;
    const { id } = await completeScan();
    await receiver.waitFor(1);
    let [row] = await settled();
    const queuedAt = row!.createdAt.getTime();
    // Every retry until the window ends: the waits double (30 s, 1 min, 2 min ...), at most 4 h apart.
    const waits: number[] = [];
    for (let i = 0; i < 40 && row!.status === "pending"; i++) {
      const due = row!.nextAttemptAt.getTime();
      waits.push(due - row!.lastAttemptAt!.getTime());
      await workQueue(database.db, { now: () => new Date(due) });
      [row] = await deliveries();
    }
    // (The first attempt ran on the real clock, so its wait counts from when its failure was recorded.)
    expect(waits[0]).toBeGreaterThanOrEqual(30_000);
    expect(waits[0]).toBeLessThan(35_000);
    expect(waits.slice(1, 5)).toEqual([60_000, 120_000, 240_000, 480_000]);
    expect(Math.max(...waits)).toBe(4 * 3600_000);
    expect(row).toMatchObject({ status: "failed", lastStatus: 503 });
    expect(row!.lastAttemptAt!.getTime()).toBe(queuedAt + RETRY_WINDOW_MS);
    expect(receiver.received).toHaveLength(row!.attempts);

    // A receiver that does not answer in time, and one that is not there.
    receiver.otherwise = 200;
    receiver.delayMs = 1000;
    await database.db.update(webhookDeliveries).set({ status: "pending", nextAttemptAt: new Date(), giveUpAt: new Date(Date.now() + 3600_000) });
    await workQueue(database.db, { timeoutMs: 200 });
    [row] = await deliveries();
    expect(row).toMatchObject({ status: "pending", lastStatus: null, lastError: "No answer within 0.2 s." });
    receiver.delayMs = 0;
    await database.db.update(leadWebhooks).set({ url: "http://127.0.0.1:9/closed" }).where(eq(leadWebhooks.id, hook.id));
    await workQueue(database.db, { now: () => row!.nextAttemptAt });
    [row] = await deliveries();
    expect(row!.lastError).toBe("The connection was refused: nothing is listening at the receiver's address.");
    await database.db.update(leadWebhooks).set({ url: receiver.url }).where(eq(leadWebhooks.id, hook.id));

    // Send again: a new delivery of the same body, sent at once.
    const before = receiver.received.length;
    const resend = await api(`/api/admin/webhook-deliveries/${row!.id}/resend`, asAdmin(cookie, "POST"));
    expect(resend.status).toBe(202);
    const { deliveryId } = (await resend.json()) as { deliveryId: number };
    await receiver.waitFor(before + 1);
    const rows = await settled();
    expect(rows.find((d) => d.id === deliveryId)).toMatchObject({ status: "delivered", attempts: 1, sessionId: id, body: row!.body });
    expect((await api("/api/admin/webhook-deliveries/999999/resend", asAdmin(cookie, "POST"))).status).toBe(404);
  });

  it("sends a signed sample with the test button, and only active webhooks get scans", async () => {
    const hook = await addWebhook();
    const response = await api(`/api/admin/webhooks/${hook.id}/test`, asAdmin(cookie, "POST"));
    expect(response.status).toBe(202);
    await receiver.waitFor(1);
    const sample = receiver.received[0]!;
    expect(verifySignature(hook.secret, sample.headers[SIGNATURE_HEADER] as string, sample.headers[DELIVERY_HEADER] as string, sample.body)).toBe(true);
    expect(JSON.parse(sample.body)).toMatchObject({ event: "test", name: "Test Lead", answers: expect.any(Array) });
    expect((await api("/api/admin/webhooks/999999/test", asAdmin(cookie, "POST"))).status).toBe(404);

    const off = await api(`/api/admin/webhooks/${hook.id}`, asAdmin(cookie, "PUT", { active: false }));
    expect(off.status).toBe(200);
    await completeScan();
    await settled();
    expect(receiver.received).toHaveLength(1);
    expect((await deliveries()).map((d) => d.kind)).toEqual(["test"]);
    // Retention keeps the log for 90 days after a delivery, and never drops one still pending.
    await database.db.insert(webhookDeliveries).values({ webhookId: hook.id, kind: "test", body: "{}", giveUpAt: new Date(Date.now() + RETRY_WINDOW_MS) });
    const store = { list: async () => [], delete: async () => {} } as unknown as PhotoStore;
    const policy = { unfinishedScanDays: 3650, deletedContentDays: 3650, unusedPhotoDays: 3650, readingDays: 3650, readingTotalsDays: 3650 };
    expect((await runRetention(database.db, { now: new Date(Date.now() + (WEBHOOK_LOG_DAYS - 1) * 86400_000), policy, store })).webhookDeliveries).toBe(0);
    expect((await runRetention(database.db, { now: new Date(Date.now() + (WEBHOOK_LOG_DAYS + 1) * 86400_000), policy, store })).webhookDeliveries).toBe(1);
    expect((await deliveries()).map((d) => d.status)).toEqual(["pending"]);
    ({ cookie } = await adminLogin(api, database.db)); // retention 90 days on also ended the admin's session
    // Removing the webhook removes its log.
    expect((await api(`/api/admin/webhooks/${hook.id}`, asAdmin(cookie, "DELETE"))).status).toBe(204);
    expect(await deliveries()).toEqual([]);
  });

  it("reports a failed test once: it is not queued for a day of retries (issue 22: 6)", async () => {
    const hook = await addWebhook();
    receiver.otherwise = 500;
    const response = await api(`/api/admin/webhooks/${hook.id}/test`, asAdmin(cookie, "POST"));
    expect(response.status).toBe(202);
    const { deliveryId } = (await response.json()) as { deliveryId: number };
    await receiver.waitFor(1);
    const [row] = await settled();
    expect(row).toMatchObject({ id: deliveryId, kind: "test", status: "failed", attempts: 1, lastError: "The receiver answered 500 Internal Server Error." });
    // The queue's later runs leave it be.
    await workQueue(database.db, { now: () => new Date(Date.now() + 3600_000) });
    expect(receiver.received).toHaveLength(1);
    expect((await deliveries())[0]).toMatchObject({ status: "failed", attempts: 1 });
    // A lead that fails is still retried.
    await completeScan();
    const lead = (await settled()).find((d) => d.kind === "lead");
    expect(lead).toMatchObject({ status: "pending", attempts: 1 });
  });

  it("queues deliveries in the completing transaction: a failed completion queues none, a repeated one no more", async () => {
    await addWebhook();
    const [session] = await database.db.insert(assessmentSessions).values({}).returning();
    const refused = await api(`/api/assessment/session/${session!.id}/complete`, jsonPost({ name: "Ada", email: "ada@example.com" }));
    expect(refused.status).toBe(400); // unanswered questions
    expect(await deliveries()).toEqual([]);
    const { id } = await completeScan();
    await api(`/api/assessment/session/${id}/complete`, jsonPost({ name: "Ada", email: "ada@example.com" }));
    await settled();
    expect(await deliveries()).toHaveLength(1);
    expect(receiver.received).toHaveLength(1);
  });

  it("a delivery queued before a stop is delivered by a new worker on the same database", async () => {
    const hook = await addWebhook();
    receiver.otherwise = 500;
    await completeScan();
    await receiver.waitFor(1);
    const [row] = await settled();
    receiver.otherwise = 200;
    // A worker that stopped mid-attempt leaves its lease behind: the next worker takes the row once it ends.
    await database.db.update(webhookDeliveries).set({ leaseUntil: new Date(Date.now() + 60_000), nextAttemptAt: new Date() });
    const second = database.url ? await openDatabase({ driver: target.name, url: database.url }) : undefined;
    const worker = second?.db ?? database.db;
    try {
      await workQueue(worker);
      expect(receiver.received).toHaveLength(1); // still leased
      await workQueue(worker, { now: () => new Date(Date.now() + 61_000) });
      expect(receiver.received).toHaveLength(2);
      expect(verifySignature(hook.secret, receiver.received[1]!.headers[SIGNATURE_HEADER] as string, receiver.received[1]!.headers[DELIVERY_HEADER] as string, receiver.received[1]!.body)).toBe(true);
      expect(await deliveries()).toEqual([expect.objectContaining({ id: row!.id, status: "delivered", attempts: 2 })]);
    } finally {
      await second?.close();
    }
  });

  it.runIf(target.name !== "pglite")("two workers at once never send one delivery twice", async () => {
    await addWebhook();
    const [hook] = await database.db.select().from(leadWebhooks);
    const now = new Date();
    await database.db.insert(webhookDeliveries).values(
      Array.from({ length: 40 }, (_, i) => ({ webhookId: hook!.id, kind: "lead", body: JSON.stringify({ n: i }), nextAttemptAt: now, giveUpAt: new Date(now.getTime() + RETRY_WINDOW_MS) })),
    );
    receiver.delayMs = 20;
    const workers = await Promise.all([0, 1, 2].map(() => openDatabase({ driver: target.name, url: database.url! })));
    try {
      const reports = await Promise.all([...workers, ...workers].map((w) => workQueue(w.db)));
      expect(reports.reduce((n, r) => n + r.delivered, 0)).toBe(40);
      expect(reports.filter((r) => r.delivered > 0).length).toBeGreaterThan(1); // the work was shared
    } finally {
      await Promise.all(workers.map((w) => w.close()));
    }
    const ids = receiver.received.map((r) => r.headers[DELIVERY_HEADER]);
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
    const rows = await database.db.select().from(webhookDeliveries);
    expect(rows.filter((d) => d.status === "delivered" && d.attempts === 1)).toHaveLength(40);
  });
});
