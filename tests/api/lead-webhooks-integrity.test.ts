/**
 * Lead webhooks, round two (issue 21, items 7 and 9): the delivery connects to the address that was
 * checked (a host that answers 127.0.0.1 on a second lookup never gets a request there), errors in
 * the log name nothing of the server's network, pausing a webhook stops its deliveries at once, the
 * signature covers the delivery id (checked with the README's own snippet), the submission link is
 * the configured site's whatever the request's Host, and a completion sent several times at once
 * makes one submission and one delivery.
 */
import dc from "node:diagnostics_channel";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo, Socket } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { answersForTotal } from "../../src/lib/assessment/fixtures.ts";
import { loadAssessment } from "../../src/server/assessment/content.ts";
import { config, useConfig } from "../../src/server/config.ts";
import { migrationsFolder } from "../../src/server/db/client.ts";
import { eq, sql } from "../../src/server/db/orm.ts";
import { assessmentResponses, assessmentSessions, leadWebhooks, webhookDeliveries } from "../../src/server/db/schema.ts";
import { RETRY_WINDOW_MS } from "../../src/server/leads/backoff.ts";
import { PAUSED_NOTE, workQueue } from "../../src/server/leads/delivery-queue.ts";
import type { LeadPayload } from "../../src/server/leads/payload.ts";
import { PRIVATE_ADDRESS_ERROR, type Resolver } from "../../src/server/leads/receiver-request.ts";
import { DELIVERY_HEADER, SIGNATURE_HEADER } from "../../src/server/leads/signature.ts";
import { STOPPED_BY_PAUSE, queueDelivery } from "../../src/server/leads/webhooks.ts";
import { adminLogin, asAdmin } from "../support/admin.ts";
import { apiClient, type Api } from "../support/api.ts";
import { jsonPost } from "../support/auth.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";
import { startReceiver, type Receiver } from "../support/webhook-receiver.ts";

const content = loadAssessment();

// A self-signed certificate for hooks.test (valid until 2126), for an https receiver no client trusts.
const HOOKS_TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgfY/mu5no/pz0zkTe
thUos0aZMbLfa2pwc2LAAUqnX2GhRANCAAQHjA6oHiGuj0jqToU4VCrE03Ydutbq
r3R9foxg1EvQUMARdnaiWFT5lQ5PPv1mOfuIffPUNQ6ScOUVltyjJmOE
-----END PRIVATE KEY-----`;
const HOOKS_TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBmDCCAT6gAwIBAgIUEJu1qUbo0LZnF5fbJUVHOMZDzcIwCgYIKoZIzj0EAwIw
FTETMBEGA1UEAwwKaG9va3MudGVzdDAgFw0yNjExMjUxMzE5NDFaGA8yMTI2MTEw
MTEzMTk0MVowFTETMBEGA1UEAwwKaG9va3MudGVzdDBZMBMGByqGSM49AgEGCCqG
SM49AwEHA0IABAeMDqgeIa6PSOpOhThUKsTTdh261uqvdH1+jGDUS9BQwBF2dqJY
VPmVDk8+/WY5+4h989Q1DpJw5RWW3KMmY4SjajBoMB0GA1UdDgQWBBQP5bs6omeM
kueTgZ8dvOe7AvxIfTAfBgNVHSMEGDAWgBQP5bs6omeMkueTgZ8dvOe7AvxIfTAP
BgNVHRMBAf8EBTADAQH/MBUGA1UdEQQOMAyCCmhvb2tzLnRlc3QwCgYIKoZIzj0E
AwIDSAAwRQIhAIn81R+3jwRxoBXdzvAIRhs+YFovkFEp81NokU6o4axeAiBXQONE
0A7lVZZodaSfKTq6KgAGLt65oAX2fTFRG0FTjA==
-----END CERTIFICATE-----`;

/** Every connection this process starts to `port`: the addresses it tried. */
function watchConnections(port: number): { addresses: string[]; stop(): void } {
  const addresses: string[] = [];
  const onSocket = (message: unknown) => {
    const { socket } = message as { socket: Socket };
    socket.on("connectionAttempt", (ip: string, attemptPort: number) => {
      if (attemptPort === port) addresses.push(ip);
    });
  };
  dc.subscribe("net.client.socket", onSocket);
  return { addresses, stop: () => dc.unsubscribe("net.client.socket", onSocket) };
}

/** A port nothing listens on (one just freed). */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The verification function exactly as the README gives it to receivers. */
async function readmeVerifier(): Promise<(secret: string, header: unknown, deliveryId: unknown, rawBody: string) => boolean> {
  const readme = fs.readFileSync(path.join(import.meta.dirname, "../../README.md"), "utf8");
  const section = readme.slice(readme.indexOf("**The signature.**"));
  const code = /```js\n([\s\S]*?)```/.exec(section)![1]!;
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), "sb-readme-"));
  try {
    const file = path.join(folder, "verify.mjs");
    fs.writeFileSync(file, code);
    const module = (await import(file)) as { verifyLead: (secret: string, header: unknown, deliveryId: unknown, rawBody: string) => boolean };
    return module.verifyLead;
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

describe.each(databaseTargets())("lead webhook integrity on $name", (target) => {
  let database: TestDatabase;
  let api: Api;
  let cookie: string;
  let receiver: Receiver;
  const receiverPort = () => Number(new URL(receiver.url).port);

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
    await database.db.delete(leadWebhooks);
    receiver.received.length = 0;
    receiver.script = [];
    receiver.otherwise = 200;
    receiver.delayMs = 0;
  });

  /** A webhook straight into the database: addresses the admin API would refuse in production. */
  const insertWebhook = async (url: string) => {
    const [hook] = await database.db.insert(leadWebhooks).values({ url, secret: "whsec_test" }).returning();
    return hook!;
  };
  const addWebhook = async (url = receiver.url) => {
    const response = await api("/api/admin/webhooks", asAdmin(cookie, "POST", { url }));
    expect(response.status).toBe(201);
    return (await response.json()) as { id: number; secret: string };
  };
  const queueTest = (webhookId: number) => queueDelivery(database.db, { webhookId, sessionId: null, kind: "test", body: '{"event":"test"}' }, new Date());
  const deliveries = () => database.db.select().from(webhookDeliveries).orderBy(webhookDeliveries.id);
  const deliveryLog = async () =>
    (await (await api("/api/admin/webhook-deliveries", asAdmin(cookie))).json()) as { id: number; url: string; status: string; lastError: string | null }[];
  const settled = async () => {
    for (let i = 0; i < 500; i++) {
      const rows = await deliveries();
      if (rows.every((d) => d.attempts > 0 && d.leaseUntil === null)) return rows;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error("a delivery stayed claimed");
  };
  /** A scan with every answer stored, not yet completed. */
  const answeredScan = async (total = 40) => {
    const [session] = await database.db.insert(assessmentSessions).values({}).returning();
    const answers = answersForTotal(content, total);
    await database.db
      .insert(assessmentResponses)
      .values(Object.entries(answers).map(([n, answer]) => ({ sessionId: session!.id, questionNumber: Number(n), answer: answer! })));
    return session!.id;
  };

  it("connects to the address that was checked: a host answering 127.0.0.1 on the second lookup never gets a request there", async () => {
    const lookups: string[] = [];
    // A public address for the check, then the server's own loopback: DNS rebinding.
    const rebinding: Resolver = async (host) => {
      lookups.push(host);
      return [{ address: lookups.length === 1 ? "203.0.113.9" : "127.0.0.1", family: 4 }];
    };
    await insertWebhook(`http://rebind.example:${receiverPort()}/hook`);
    const [hook] = await database.db.select().from(leadWebhooks);
    await queueTest(hook!.id);
    const connections = watchConnections(receiverPort());
    try {
      await workQueue(database.db, { publicOnly: true, resolve: rebinding, timeoutMs: 500 });
    } finally {
      connections.stop();
    }
    expect(lookups).toEqual(["rebind.example"]); // looked up once
    expect(connections.addresses.length).toBeGreaterThan(0);
    expect(new Set(connections.addresses)).toEqual(new Set(["203.0.113.9"])); // and connected there only
    expect(receiver.received).toHaveLength(0);

    // A name whose (one) lookup answers a private address is refused, with no connection at all.
    await database.db.delete(webhookDeliveries);
    const loopback: Resolver = async () => [{ address: "127.0.0.1", family: 4 }];
    await queueTest(hook!.id);
    const none = watchConnections(receiverPort());
    try {
      await workQueue(database.db, { publicOnly: true, resolve: loopback, timeoutMs: 500 });
    } finally {
      none.stop();
    }
    expect(none.addresses).toEqual([]);
    expect(receiver.received).toHaveLength(0);
    // (A test is tried once: issue 22: 6.)
    expect((await deliveries())[0]).toMatchObject({ status: "failed", lastError: PRIVATE_ADDRESS_ERROR });
  });

  it("connects a checked host name to its looked-up address, keeping the name in the Host header", async () => {
    await insertWebhook(`http://receiver.example:${receiverPort()}/hook`);
    const [hook] = await database.db.select().from(leadWebhooks);
    await queueTest(hook!.id);
    await workQueue(database.db, { resolve: async () => [{ address: "127.0.0.1", family: 4 }] });
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.headers.host).toBe(`receiver.example:${receiverPort()}`);
    expect((await deliveries())[0]).toMatchObject({ status: "delivered" });
  });

  it("keeps HTTPS certificate checks for the host name when connecting to the checked address", async () => {
    const serverNames: string[] = [];
    const tlsServer = https.createServer(
      {
        key: HOOKS_TEST_KEY,
        cert: HOOKS_TEST_CERT,
        SNICallback: (name, callback) => {
          serverNames.push(name);
          callback(null, undefined);
        },
      },
      (_request, response) => response.writeHead(200).end("ok"),
    );
    await new Promise<void>((resolve) => tlsServer.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = tlsServer.address() as AddressInfo;
      await insertWebhook(`https://hooks.test:${port}/hook`);
      const [hook] = await database.db.select().from(leadWebhooks);
      await queueTest(hook!.id);
      await workQueue(database.db, { resolve: async () => [{ address: "127.0.0.1", family: 4 }], timeoutMs: 2000 });
      // The certificate is self-signed: refused, as any client would, after asking for hooks.test by name.
      expect(serverNames).toEqual(["hooks.test"]);
      expect((await deliveries())[0]).toMatchObject({
        status: "failed",
        lastError: "The receiver's HTTPS certificate was not accepted (DEPTH_ZERO_SELF_SIGNED_CERT).",
      });
    } finally {
      tlsServer.closeAllConnections();
      await new Promise<void>((resolve) => tlsServer.close(() => resolve()));
    }
  });

  it("says what failed without naming the server's network: addresses, ports and internal host names", async () => {
    const port = await closedPort();
    const internal = "crm.corp.internal";
    const resolveInternal: Resolver = async (host) => {
      if (host === "gone.corp.internal") throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND", hostname: host });
      return [{ address: "127.0.0.1", family: 4 }];
    };
    const cases = [
      { url: `http://127.0.0.1:${port}/hook`, error: "The connection was refused: nothing is listening at the receiver's address." },
      { url: `http://${internal}:${port}/hook`, error: "The connection was refused: nothing is listening at the receiver's address." },
      { url: `http://gone.corp.internal:${port}/hook`, error: "The receiver's host name was not found." },
    ];
    for (const { url } of cases) await queueTest((await insertWebhook(url)).id);
    await workQueue(database.db, { resolve: resolveInternal });
    // A receiver that does not answer in time.
    receiver.delayMs = 1000;
    await queueTest((await insertWebhook(`http://${internal}:${receiverPort()}/slow`)).id);
    await workQueue(database.db, { resolve: resolveInternal, timeoutMs: 200 });
    receiver.delayMs = 0;

    const log = await deliveryLog();
    const byUrl = new Map(log.map((d) => [d.url, d.lastError]));
    for (const { url, error } of cases) expect(byUrl.get(url), url).toBe(error);
    expect(byUrl.get(`http://${internal}:${receiverPort()}/slow`)).toBe("No answer within 0.2 s.");
    for (const { lastError } of log) {
      expect(lastError).not.toMatch(/127\.0\.0\.1|corp\.internal|ECONNREFUSED|ENOTFOUND|getaddrinfo|connect /);
      expect(lastError).not.toContain(String(port));
      expect(lastError).not.toContain(String(receiverPort()));
    }
  });

  it("rewrites the error texts an earlier version stored, which named the network", async () => {
    const hook = await insertWebhook("https://hooks.example.com/x");
    const stored = [
      "fetch failed: connect ECONNREFUSED 10.0.0.5:8080",
      "fetch failed: getaddrinfo ENOTFOUND crm.corp.internal",
      "fetch failed: other side closed",
      "hooks.example.com resolves to a private address; refused.",
      "fetch failed: Connect Timeout Error (attempted address: 10.0.0.5:443, timeout: 10000ms)",
      "fetch failed: unable to verify the first certificate",
      "The receiver answered 500 Internal Server Error.",
      "No answer within 10 s.",
      "something else entirely at 10.0.0.5",
    ];
    const giveUpAt = new Date(Date.now() + RETRY_WINDOW_MS);
    await database.db.insert(webhookDeliveries).values(stored.map((lastError) => ({ webhookId: hook.id, kind: "test", body: "{}", status: "failed", lastError, giveUpAt })));
    const migration = fs.readFileSync(path.join(migrationsFolder, "0013_webhook_error_texts.sql"), "utf8");
    for (const statement of migration.split("--> statement-breakpoint")) await database.db.execute(sql.raw(statement));
    expect((await deliveries()).map((d) => d.lastError)).toEqual([
      "The connection was refused: nothing is listening at the receiver's address.",
      "The receiver's host name was not found.",
      "The connection was closed before the receiver answered.",
      PRIVATE_ADDRESS_ERROR,
      "The connection timed out.",
      "The receiver's HTTPS certificate was not accepted.",
      "The receiver answered 500 Internal Server Error.",
      "No answer within 10 s.",
      "The request failed.",
    ]);
  });

  it("pausing a webhook stops its waiting deliveries at once: no more attempts, and no tests or resends while paused", async () => {
    const hook = await addWebhook();
    receiver.otherwise = 500;
    const sessionId = await answeredScan();
    expect((await api(`/api/assessment/session/${sessionId}/complete`, jsonPost({ name: "Ada", email: "ada@example.com" }))).status).toBe(200);
    await receiver.waitFor(1);
    const [waiting] = await settled();
    expect(waiting).toMatchObject({ status: "pending", attempts: 1 });

    expect((await api(`/api/admin/webhooks/${hook.id}`, asAdmin(cookie, "PUT", { active: false }))).status).toBe(200);
    const [stopped] = await deliveries();
    expect(stopped).toMatchObject({ status: "failed", attempts: 1, lastError: `The receiver answered 500 Internal Server Error. ${STOPPED_BY_PAUSE}` });
    expect((await deliveryLog())[0]).toMatchObject({ status: "failed", lastError: `The receiver answered 500 Internal Server Error. ${STOPPED_BY_PAUSE}` });
    // Long after it was due: nothing more is sent, not even a row that was queued in a race.
    await database.db.insert(webhookDeliveries).values({ webhookId: hook.id, kind: "lead", body: "{}", giveUpAt: new Date(Date.now() + RETRY_WINDOW_MS) });
    for (const later of [60_000, 3_600_000, RETRY_WINDOW_MS]) await workQueue(database.db, { now: () => new Date(Date.now() + later) });
    expect(receiver.received).toHaveLength(1);

    const test = await api(`/api/admin/webhooks/${hook.id}/test`, asAdmin(cookie, "POST"));
    expect(test.status).toBe(409);
    expect(((await test.json()) as { error: { code: string; message: string } }).error).toEqual({
      code: "webhook_paused",
      message: "This webhook is paused: turn it on to send to it.",
    });
    expect((await api(`/api/admin/webhook-deliveries/${stopped!.id}/resend`, asAdmin(cookie, "POST"))).status).toBe(409);

    // Turned on again: what the pause stopped stays stopped; Send Again sends it anew.
    await database.db.delete(webhookDeliveries).where(eq(webhookDeliveries.status, "pending"));
    expect((await api(`/api/admin/webhooks/${hook.id}`, asAdmin(cookie, "PUT", { active: true }))).status).toBe(200);
    await workQueue(database.db, { now: () => new Date(Date.now() + 60_000) });
    expect(receiver.received).toHaveLength(1);
    receiver.otherwise = 200;
    expect((await api(`/api/admin/webhook-deliveries/${stopped!.id}/resend`, asAdmin(cookie, "POST"))).status).toBe(202);
    await receiver.waitFor(2);
  });

  it("an attempt under way when its webhook is paused is not retried", async () => {
    const hook = await addWebhook();
    receiver.otherwise = 500;
    receiver.delayMs = 300;
    await queueTest(hook.id);
    const working = workQueue(database.db);
    await receiver.waitFor(1); // the request has arrived; its answer is 300 ms away
    expect((await api(`/api/admin/webhooks/${hook.id}`, asAdmin(cookie, "PUT", { active: false }))).status).toBe(200);
    expect(await working).toEqual({ delivered: 0, retrying: 0, failed: 1 });
    expect((await deliveries())[0]).toMatchObject({ status: "failed", lastError: `The receiver answered 500 Internal Server Error. ${PAUSED_NOTE}` });
    await workQueue(database.db, { now: () => new Date(Date.now() + RETRY_WINDOW_MS) });
    expect(receiver.received).toHaveLength(1);
  });

  it("signs the delivery id header with the body, as the README's verification code checks", async () => {
    const verifyLead = await readmeVerifier();
    const hook = await addWebhook();
    const sessionId = await answeredScan();
    await api(`/api/assessment/session/${sessionId}/complete`, jsonPost({ name: "Ada", email: "ada@example.com" }));
    await receiver.waitFor(1);
    const [request] = receiver.received;
    const [row] = await settled();
    const deliveryId = request!.headers[DELIVERY_HEADER];
    expect(deliveryId).toBe(String(row!.id));
    expect(request!.headers[SIGNATURE_HEADER]).toMatch(/^t=\d+,v2=[0-9a-f]{64}$/);
    expect(verifyLead(hook.secret, request!.headers[SIGNATURE_HEADER], deliveryId, request!.body)).toBe(true);
    // The same signed request replayed under another delivery id (to pass a receiver's dedupe) fails.
    expect(verifyLead(hook.secret, request!.headers[SIGNATURE_HEADER], String(row!.id + 1), request!.body)).toBe(false);
    expect(verifyLead(hook.secret, request!.headers[SIGNATURE_HEADER], undefined, request!.body)).toBe(false);
    expect(verifyLead(hook.secret, request!.headers[SIGNATURE_HEADER], deliveryId, request!.body.replace("Ada", "Eve"))).toBe(false);
    expect(verifyLead("whsec_other", request!.headers[SIGNATURE_HEADER], deliveryId, request!.body)).toBe(false);
  });

  it("builds the submission link from the configured site address, whatever the request's Host", async () => {
    await addWebhook();
    const previous = config();
    const completeFrom = async (host: string) => {
      const sessionId = await answeredScan();
      const before = receiver.received.length;
      const response = await api(`http://${host}/api/assessment/session/${sessionId}/complete`, jsonPost({ name: "Ada", email: "ada@example.com" }));
      expect(response.status).toBe(200);
      await receiver.waitFor(before + 1);
      return { sessionId, payload: JSON.parse(receiver.received.at(-1)!.body) as LeadPayload };
    };
    try {
      // (An http:// SITE_URL, so the local receiver may still be used: an https one means production.)
      useConfig({ ...previous, siteUrl: "http://book.example" });
      const { sessionId, payload } = await completeFrom("evil.example");
      expect(payload.submissionUrl).toBe(`http://book.example/admin?submission=${sessionId}`);
      const [hook] = await database.db.select().from(leadWebhooks);
      expect((await api(`http://evil.example/api/admin/webhooks/${hook!.id}/test`, asAdmin(cookie, "POST"))).status).toBe(202);
      await receiver.waitFor(2);
      expect((JSON.parse(receiver.received.at(-1)!.body) as LeadPayload).submissionUrl).toMatch(/^http:\/\/book\.example\/admin\?submission=/);

      // No SITE_URL (the local host): its own address, still not the request's.
      useConfig({ ...previous, siteUrl: undefined, port: 4321 });
      const local = await completeFrom("evil.example:8443");
      expect(local.payload.submissionUrl).toBe(`http://localhost:4321/admin?submission=${local.sessionId}`);
    } finally {
      useConfig(previous);
    }
  });

  it("a completion sent several times at once makes one submission and one delivery", async () => {
    await addWebhook();
    receiver.delayMs = 50;
    const scans = await Promise.all(Array.from({ length: 5 }, (_, i) => answeredScan(30 + i)));
    const statuses = await Promise.all(
      scans.flatMap((id) =>
        [0, 1, 2].map(async (i) => {
          const response = await api(`/api/assessment/session/${id}/complete`, jsonPost({ name: `Sender ${i}`, email: `sender${i}@example.com` }));
          return { id, status: response.status, body: (await response.json()) as { totalScore: number; resultUrl: string } };
        }),
      ),
    );
    expect(statuses.every((s) => s.status === 200)).toBe(true);
    for (const id of scans) {
      const answers = statuses.filter((s) => s.id === id).map((s) => s.body);
      expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1); // the same result to each
    }
    const completed = await database.db.select().from(assessmentSessions).where(eq(assessmentSessions.completed, "true"));
    expect(completed.filter((s) => scans.includes(s.id))).toHaveLength(5);
    await receiver.waitFor(5);
    const rows = await settled();
    expect(rows.filter((d) => d.kind === "lead").map((d) => d.sessionId).sort()).toEqual([...scans].sort());
    await new Promise((r) => setTimeout(r, 200));
    expect(receiver.received).toHaveLength(5);
    expect(new Set(receiver.received.map((r) => (JSON.parse(r.body) as LeadPayload).id))).toEqual(new Set(scans));
  });
});
