/**
 * Access that expires (issue 14: 6): an access code's end date ends its sessions and refuses its
 * sign-in; its cap on sessions at once ends the oldest on one sign-in too many, also for sign-ins
 * sent at once; the admin sets both when issuing a code and afterwards, sees the sessions open and
 * the last use, and can end every session of a code.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadBook } from "../../src/server/content/book.ts";
import { seed } from "../../src/server/content/seed.ts";
import { accessCodes, sessionEndings, sessions } from "../../src/server/db/schema.ts";
import { eq } from "../../src/server/db/orm.ts";
import { issueAccessCode } from "../../src/server/repositories/access-codes.ts";
import { runRetention } from "../../src/server/maintenance/retention.ts";
import { EXPIRED_CODE_MESSAGE } from "../../src/server/api/auth.ts";
import { apiClient, type Api } from "../support/api.ts";
import { adminLogin, asAdmin } from "../support/admin.ts";
import { cookieOf, jsonPost } from "../support/auth.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";

const book = loadBook();
const architectChapter = book.find((c) => c.level === "Architect")!;
const DAY_MS = 24 * 3600 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();

interface ListedCode {
  login: string;
  expiresAt: string | null;
  expired: boolean;
  maxSessions: number;
  activeSessions: number;
  usedAt: string | null;
  lastUsedAt: string | null;
}

describe.each(databaseTargets())("access that expires on $name", (target) => {
  let database: TestDatabase;
  let api: Api;
  let admin: string;
  let address = 0;
  /** A distinct client address per sign-in, so the per-address limit never gets in the way. */
  const from = () => ({ "x-nf-client-connection-ip": `198.51.100.${(++address % 250) + 1}` });

  beforeAll(async () => {
    database = await target.open();
    await seed(database.db, book);
    api = await apiClient(database);
    admin = (await adminLogin(api, database.db)).cookie;
  });
  afterAll(() => database?.dispose());

  const signIn = (login: string, password: string) => api("/api/auth/validate", jsonPost({ login, password }, from()));
  const signedIn = async (login: string, password: string) => {
    const response = await signIn(login, password);
    expect(response.status, await response.clone().text()).toBe(200);
    return cookieOf(response);
  };
  /** Whether a cookie's session still opens the locked chapter, and what the session check says. */
  const opens = async (cookie: string) => {
    const [chapter, session] = await Promise.all([
      api(`/api/chapters/${architectChapter.slug}`, { headers: { cookie } }),
      api("/api/auth/session", { headers: { cookie } }).then((r) => r.json() as Promise<{ authenticated: boolean }>),
    ]);
    expect(chapter.status === 200, "the chapter and the session check agree").toBe(session.authenticated);
    return session.authenticated;
  };
  const listed = async (login: string) => {
    const list = (await (await api("/api/admin/access-codes", asAdmin(admin))).json()) as ListedCode[];
    return list.find((code) => code.login === login)!;
  };
  const issue = async (body: Record<string, unknown>) => {
    const response = await api("/api/admin/access-codes", asAdmin(admin, "POST", { level: "Architect", ...body }));
    expect(response.status, await response.clone().text()).toBe(201);
    return (await response.json()) as { login: string; password: string; expiresAt: string | null; maxSessions: number };
  };
  const expireNow = (login: string) =>
    database.db.update(accessCodes).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(accessCodes.login, login));
  const sessionRows = async (login: string) => {
    const [code] = await database.db.select({ id: accessCodes.id }).from(accessCodes).where(eq(accessCodes.login, login));
    return database.db.select().from(sessions).where(eq(sessions.accessCodeId, code!.id));
  };

  it("issues a code with an end date and a cap, and lists both with its sessions and last use", async () => {
    const expiresAt = inDays(30);
    const code = await issue({ expiresAt, maxSessions: 2 });
    expect(code).toMatchObject({ maxSessions: 2 });
    expect(new Date(code.expiresAt!).toISOString()).toBe(expiresAt);
    expect(await listed(code.login)).toMatchObject({ maxSessions: 2, expired: false, activeSessions: 0, usedAt: null, lastUsedAt: null });
    const cookie = await signedIn(code.login, code.password);
    const after = await listed(code.login);
    expect(after).toMatchObject({ activeSessions: 1, expired: false });
    expect(new Date(after.expiresAt!).toISOString()).toBe(expiresAt);
    expect(after.lastUsedAt).toBe(after.usedAt);

    // Reading counts as use too: the last use is the later of the last sign-in and the last page read.
    const yesterday = new Date(Date.now() - DAY_MS);
    await database.db.update(accessCodes).set({ usedAt: yesterday }).where(eq(accessCodes.login, code.login));
    expect((await api("/api/reading/heartbeat", jsonPost({ slug: architectChapter.slug }, { cookie }))).status).toBe(204);
    const read = await listed(code.login);
    expect(new Date(read.usedAt!).getTime()).toBe(yesterday.getTime());
    expect(Date.now() - new Date(read.lastUsedAt!).getTime()).toBeLessThan(60_000);

    // Without limits: never ends, three sessions at once. And another code's sessions and reading
    // are not this one's (a subquery once matched the session's own id).
    const plain = await issue({});
    expect(await listed(plain.login)).toMatchObject({ expiresAt: null, maxSessions: 3, expired: false, activeSessions: 0, lastUsedAt: null });
  });

  it("refuses an end date in the past, a cap of 0 and other bad limits, naming the field", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ expiresAt: inDays(-1) }, "expiresAt: End date must be in the future"],
      [{ expiresAt: "next Tuesday" }, "expiresAt: End date must be a date and time such as 2027-01-31T23:59:59Z"],
      [{ expiresAt: "2027-02-30T00:00:00Z" }, "expiresAt: End date must be a date and time"],
      [{ expiresAt: 12 }, "expiresAt: End date must be a date and time such as 2027-01-31T23:59:59Z, or null"],
      [{ maxSessions: 0 }, "maxSessions: Session cap must be at least 1"],
      [{ maxSessions: -3 }, "maxSessions: Session cap must be at least 1"],
      [{ maxSessions: 2.5 }, "maxSessions: Session cap must be a whole number"],
      [{ maxSessions: 101 }, "maxSessions: Session cap must be at most 100"],
      [{ maxSessions: "3" }, "maxSessions: Session cap must be a number"],
    ];
    const code = await issue({});
    for (const [body, message] of cases) {
      for (const [path, method, payload] of [
        ["/api/admin/access-codes", "POST", { level: "Architect", ...body }],
        [`/api/admin/access-codes/${code.login}/settings`, "PUT", body],
      ] as const) {
        const response = await api(path, asAdmin(admin, method, payload));
        expect(response.status, `${method} ${JSON.stringify(body)}`).toBe(400);
        const { error } = (await response.json()) as { error: { code: string; message: string } };
        expect(error.message).toContain(message);
      }
    }
    // Nothing was changed by a refused request.
    expect(await listed(code.login)).toMatchObject({ expiresAt: null, maxSessions: 3 });
    expect((await api("/api/admin/access-codes/Nobody999/settings", asAdmin(admin, "PUT", { maxSessions: 2 }))).status).toBe(404);
    expect((await api(`/api/admin/access-codes/${code.login}/settings`, { ...asAdmin(admin, "PUT", { maxSessions: 2 }), headers: { "content-type": "application/json" } })).status).toBe(401);
  });

  it("ends a code's sessions when its end date passes, decided at every request, and refuses its sign-in clearly", async () => {
    const code = await issue({ expiresAt: inDays(10) });
    const cookie = await signedIn(code.login, code.password);
    expect(await opens(cookie)).toBe(true);

    await expireNow(code.login);
    expect(await opens(cookie)).toBe(false);
    const refused = await signIn(code.login, code.password);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: { code: "access_code_expired", message: EXPIRED_CODE_MESSAGE, notebookKept: true } });
    expect(refused.headers.getSetCookie()).toEqual([]);
    // Only whoever knows the password learns that the code expired.
    expect((await signIn(code.login, "not-the-password")).status).toBe(401);
    expect(await listed(code.login)).toMatchObject({ expired: true, activeSessions: 0 });

    // A new end date opens the code to sign-ins again, but the sessions that ended stay ended.
    const moved = await api(`/api/admin/access-codes/${code.login}/settings`, asAdmin(admin, "PUT", { expiresAt: inDays(5) }));
    expect(moved.status).toBe(200);
    expect(await moved.json()).toMatchObject({ login: code.login, expired: false });
    expect(await opens(cookie)).toBe(false);
    expect(await opens(await signedIn(code.login, code.password))).toBe(true);

    // No end date at all: never ends.
    const cleared = await api(`/api/admin/access-codes/${code.login}/settings`, asAdmin(admin, "PUT", { expiresAt: null }));
    expect(await cleared.json()).toMatchObject({ expiresAt: null, expired: false });
  });

  it("removes the sessions of expired codes in the retention job", async () => {
    const code = await issue({ expiresAt: inDays(3) });
    await signedIn(code.login, code.password);
    const live = await issue({});
    await signedIn(live.login, live.password);
    await expireNow(code.login);
    await runRetention(database.db);
    expect(await sessionRows(code.login)).toHaveLength(0);
    expect(await sessionRows(live.login)).toHaveLength(1);
  });

  it("ends the oldest session when a code signs in on one device more than its cap; a lower cap ends the oldest at once", async () => {
    const code = await issue({});
    const cookies: string[] = [];
    for (let device = 0; device < 4; device++) cookies.push(await signedIn(code.login, code.password));
    expect(await Promise.all(cookies.map(opens))).toEqual([false, true, true, true]);
    expect(await listed(code.login)).toMatchObject({ activeSessions: 3, maxSessions: 3 });

    const lowered = await api(`/api/admin/access-codes/${code.login}/settings`, asAdmin(admin, "PUT", { maxSessions: 1 }));
    expect(await lowered.json()).toMatchObject({ maxSessions: 1 });
    expect(await Promise.all(cookies.map(opens))).toEqual([false, false, false, true]);
    const fifth = await signedIn(code.login, code.password);
    expect(await opens(cookies[3]!)).toBe(false);
    expect(await opens(fifth)).toBe(true);

    const raised = await api(`/api/admin/access-codes/${code.login}/settings`, asAdmin(admin, "PUT", { maxSessions: 5 }));
    expect(await raised.json()).toMatchObject({ maxSessions: 5 });
    const more = [await signedIn(code.login, code.password), await signedIn(code.login, code.password)];
    expect(await Promise.all([fifth, ...more].map(opens))).toEqual([true, true, true]);
    expect(await listed(code.login)).toMatchObject({ activeSessions: 3, maxSessions: 5 });
  });

  it("leaves exactly the cap's sessions after 10 sign-ins at once with one code", async () => {
    const code = await issueAccessCode(database.db, { level: "Architect" });
    const responses = await Promise.all(Array.from({ length: 10 }, () => signIn(code.login, code.password)));
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200));
    const open = await Promise.all(responses.map((r) => opens(cookieOf(r))));
    expect(open.filter(Boolean)).toHaveLength(3);
    expect(await sessionRows(code.login)).toHaveLength(3);
    expect(await listed(code.login)).toMatchObject({ activeSessions: 3 });
  });

  it("ends every session of a code on demand; the code keeps working", async () => {
    const code = await issue({ maxSessions: 4 });
    const cookies = [await signedIn(code.login, code.password), await signedIn(code.login, code.password)];
    const other = await issue({});
    const bystander = await signedIn(other.login, other.password);

    expect((await api(`/api/admin/access-codes/${code.login}/end-sessions`, { method: "POST" })).status).toBe(401);
    const ended = await api(`/api/admin/access-codes/${code.login}/end-sessions`, asAdmin(admin, "POST"));
    expect(ended.status).toBe(200);
    expect(await ended.json()).toEqual({ login: code.login, ended: 2 });
    expect(await Promise.all(cookies.map(opens))).toEqual([false, false]);
    expect(await opens(bystander)).toBe(true);
    expect(await listed(code.login)).toMatchObject({ activeSessions: 0 });
    expect(await opens(await signedIn(code.login, code.password))).toBe(true);

    expect((await api("/api/admin/access-codes/Nobody999/end-sessions", asAdmin(admin, "POST"))).status).toBe(404);
    const again = await api(`/api/admin/access-codes/${code.login}/end-sessions`, asAdmin(admin, "POST"));
    expect(await again.json()).toEqual({ login: code.login, ended: 1 });
  });

  it("tells a session ended by a sign-in on another device so, once, and no other ended session (issue 22: 8)", async () => {
    const code = await issue({ maxSessions: 1 });
    const first = await signedIn(code.login, code.password);
    const withSignedIn = (cookie: string) => `${cookie}; sb_signed_in=1`;
    // The second device's sign-in ends the first session: its next session check says why.
    await signedIn(code.login, code.password);
    const check = await api("/api/auth/session", { headers: { cookie: withSignedIn(first) } });
    expect(await check.json()).toEqual({ authenticated: false, level: null });
    const set = check.headers.getSetCookie();
    expect(set.some((cookie) => cookie.startsWith("sb_reader=;"))).toBe(true);
    expect(set.find((cookie) => cookie.startsWith("sb_session_ended="))).toMatch(/^sb_session_ended=replaced; Path=\/; SameSite=Lax; Max-Age=600$/);
    // Only the SHA-256 of the sid is kept.
    const rows = await database.db.select().from(sessionEndings);
    expect(rows.every((row) => /^[0-9a-f]{64}$/.test(row.sidHash))).toBe(true);

    // Signed out, or ended by the operator: cleared without that word.
    const other = await issue({ maxSessions: 3 });
    const signedOut = await signedIn(other.login, other.password);
    expect((await api("/api/auth/logout", { method: "POST", headers: { cookie: signedOut } })).status).toBe(200);
    const ended = await signedIn(other.login, other.password);
    await api(`/api/admin/access-codes/${other.login}/end-sessions`, asAdmin(admin, "POST"));
    for (const cookie of [signedOut, ended, "sb_reader=not-a-token"]) {
      const answer = await api("/api/auth/session", { headers: { cookie: withSignedIn(cookie) } });
      expect(answer.headers.getSetCookie().some((c) => c.startsWith("sb_session_ended="))).toBe(false);
    }

    // Kept as long as the ended session could have lasted, then removed by the retention job.
    expect((await runRetention(database.db, { now: new Date(Date.now() + 29 * DAY_MS) })).sessionEndings).toBe(0);
    expect((await runRetention(database.db, { now: new Date(Date.now() + 31 * DAY_MS) })).sessionEndings).toBeGreaterThanOrEqual(1);
    expect(await database.db.select().from(sessionEndings)).toEqual([]);
  });
});
