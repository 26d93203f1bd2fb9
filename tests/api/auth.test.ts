import { SignJWT, UnsecuredJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadBook } from "../../src/server/content/book.ts";
import { seed } from "../../src/server/content/seed.ts";
import { currentPlatform, readConfig, useConfig, config } from "../../src/server/config.ts";
import { sessionKey } from "../../src/server/auth/secret.ts";
import { audience, ISSUER } from "../../src/server/auth/session.ts";
import * as passwords from "../../src/server/auth/password.ts";
import { rateLimitCounters } from "../../src/server/db/schema.ts";
import { and, eq, sql } from "../../src/server/db/orm.ts";
import { INACTIVE_CODE_MESSAGE } from "../../src/server/api/auth.ts";
import { earliestAttemptMs } from "../../src/server/access/rate-limit.ts";
import { ACCOUNT_FREE_ATTEMPTS, ACCOUNT_MAX_DELAY_MS, loginLimits } from "../../src/server/auth/login.ts";
import { issueAccessCode, setAccessCodeActive } from "../../src/server/repositories/access-codes.ts";
import { apiClient, type Api } from "../support/api.ts";
import { cookieOf, jsonPost, loginAs } from "../support/auth.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";

vi.mock("../../src/server/auth/password.ts", { spy: true });

const book = loadBook();
const architectChapter = book.find((c) => c.level === "Architect")!;
const mastermindChapter = book.find((c) => c.level === "Mastermind")!;

describe.each(databaseTargets())("reader access on $name", (target) => {
  let database: TestDatabase;
  let api: Api;
  let address = 0;
  /** A distinct client address per test, so rate limits of one test never touch another. */
  const from = () => ({ "x-nf-client-connection-ip": `198.51.100.${++address}` });

  beforeAll(async () => {
    database = await target.open();
    await seed(database.db, book);
    api = await apiClient(database);
  });
  afterAll(() => database?.dispose());

  const login = (body: unknown, headers: Record<string, string> = from()) => api("/api/auth/validate", jsonPost(body, headers));
  const sessionWith = async (cookie: string) =>
    (await (await api("/api/auth/session", { headers: { cookie } })).json()) as { authenticated: boolean; level: string | null };

  it("logs in with a valid code: 200 {level}, an HttpOnly SameSite=Lax cookie, usedAt set", async () => {
    const code = await issueAccessCode(database.db, { level: "Architect" });
    const response = await login({ login: code.login, password: code.password });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ level: "Architect" });
    const [cookie, signedIn] = response.headers.getSetCookie();
    expect(cookie).toMatch(/^sb_reader=[\w-]+\.[\w-]+\.[\w-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
    expect(cookie).not.toContain("Secure");
    // With it, the readable "signed in" cookie: the same lifetime, no secret, not HttpOnly.
    const maxAge = /Max-Age=(\d+)/.exec(cookie!)![1];
    expect(signedIn).toBe(`sb_signed_in=1; Path=/; SameSite=Lax; Max-Age=${maxAge}`);
    expect(await sessionWith(cookieOf(response))).toEqual({ authenticated: true, level: "Architect", noteChapters: [], unreadMessages: 0 });
    const codes = await database.db.query.accessCodes.findFirst({ where: (t, { eq }) => eq(t.login, code.login) });
    expect(codes?.usedAt).toBeInstanceOf(Date);
    expect(codes?.password).not.toContain(code.password);
  });

  it("marks the cookie Secure and __Host- when configured", async () => {
    const previous = config();
    useConfig({ ...previous, secureCookies: true });
    try {
      const code = await issueAccessCode(database.db, { level: "Architect" });
      const response = await login({ login: code.login, password: code.password });
      expect(response.headers.getSetCookie()[0]).toMatch(/^__Host-sb_reader=.*; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+; Secure$/);
      expect(response.headers.getSetCookie()[1]).toMatch(/^__Host-sb_signed_in=1; Path=\/; SameSite=Lax; Max-Age=\d+; Secure$/);
    } finally {
      useConfig(previous);
    }
  });

  it("answers a wrong password and an unknown login alike, after the same scrypt work", async () => {
    const code = await issueAccessCode(database.db, { level: "Architect" });
    const verify = vi.mocked(passwords.verifyPassword);
    verify.mockClear();
    const wrong = await login({ login: code.login, password: "not-the-password" });
    expect(verify).toHaveBeenCalledTimes(1);
    verify.mockClear();
    const unknown = await login({ login: "Nobody123456", password: "not-the-password" });
    expect(verify).toHaveBeenCalledTimes(1);
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.text()).toBe(await unknown.text());
    expect(wrong.headers.getSetCookie()).toEqual([]);
  });

  it("tells whoever knows a deactivated code's password that it is no longer active, and that its notebook is kept; a wrong password hears what any other does (issue 44: 6)", async () => {
    const code = await issueAccessCode(database.db, { level: "Architect" });
    await setAccessCodeActive(database.db, code.login, false);
    const refused = await login({ login: code.login, password: code.password });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: { code: "access_code_inactive", message: INACTIVE_CODE_MESSAGE, notebookKept: true } });
    expect(refused.headers.getSetCookie()).toEqual([]);
    const wrong = await login({ login: code.login, password: "not-the-password" });
    const unknown = await login({ login: "NoSuchCode0000", password: "not-the-password" });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toBe(await unknown.text());
    // Ended more than the notebook's 30 days ago: said so, and no download offered.
    await database.db.execute(sql`UPDATE access_codes SET deactivated_at = now() - interval '31 days' WHERE login = ${code.login}`);
    expect(await (await login({ login: code.login, password: code.password })).json()).toMatchObject({ error: { code: "access_code_inactive", notebookKept: false } });
  });

  it.each([
    [{}, "login"],
    [{ login: "Architect1" }, "password"],
    [{ login: "", password: "x" }, "login"],
    [{ login: "x".repeat(101), password: "x" }, "login"],
    [{ login: "Architect1", password: "x".repeat(201) }, "password"],
    [{ login: 42, password: "x" }, "login"],
  ])("answers 400 naming the field for %j", async (body, field) => {
    const response = await login(body);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(new RegExp(`^${field}:`));
  });

  it("refuses bodies that are not JSON, and cross-site requests", async () => {
    const form = await api("/api/auth/validate", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...from() },
      body: "login=a&password=b",
    });
    expect(form.status).toBe(415);
    const code = await issueAccessCode(database.db, { level: "Architect" });
    const good = { login: code.login, password: code.password };
    expect((await login(good, { ...from(), origin: "https://evil.example" })).status).toBe(403);
    expect((await login(good, { ...from(), "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect((await login(good, { ...from(), origin: "http://localhost", "sec-fetch-site": "same-origin" })).status).toBe(200);
    const { cookie } = await loginAs(api, database.db, "Architect");
    const logout = await api("/api/auth/logout", { method: "POST", headers: { cookie, origin: "https://evil.example" } });
    expect(logout.status).toBe(403);
    expect(await sessionWith(cookie)).toEqual({ authenticated: true, level: "Architect", noteChapters: [], unreadMessages: 0 });
  });

  it("accepts the site's public origin behind a proxy that ends TLS (SITE_URL), and no other", async () => {
    const previous = config();
    useConfig({ ...previous, siteUrl: "https://book.example" });
    try {
      const code = await issueAccessCode(database.db, { level: "Architect" });
      const good = { login: code.login, password: code.password };
      // The server sees http://localhost...; the browser sends the public https origin.
      expect((await login(good, { ...from(), origin: "https://book.example" })).status).toBe(200);
      expect((await login(good, { ...from(), origin: "https://evil.example" })).status).toBe(403);
    } finally {
      useConfig(previous);
    }
  });

  it("refuses an address after 5 failures for 15 minutes (429, Retry-After), on every instance, without locking the owner out", async () => {
    const code = await issueAccessCode(database.db, { level: "Architect" });
    const attacker = from();
    for (let i = 0; i < 5; i++) {
      expect((await login({ login: code.login, password: `wrong-${i}` }, attacker)).status).toBe(401);
    }
    const locked = await login({ login: code.login, password: code.password }, attacker);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(800);
    expect(Number(locked.headers.get("retry-after"))).toBeLessThanOrEqual(900);
    // The state is in the database: another server instance on it refuses too.
    const otherInstance = await apiClient(database);
    const again = await otherInstance("/api/auth/validate", jsonPost({ login: code.login, password: code.password }, attacker));
    expect(again.status).toBe(429);
    // The owner, signing in from elsewhere, is not locked out.
    expect((await login({ login: code.login, password: code.password })).status).toBe(200);
    // Once the window is over, the attacker's address may try again.
    await database.db.update(rateLimitCounters).set({ windowStart: new Date(Date.now() - 16 * 60 * 1000) });
    expect((await login({ login: code.login, password: code.password }, attacker)).status).toBe(200);
  });

  it("slows an account down when it is guessed from many addresses: a growing Retry-After of at most a minute", async () => {
    const code = await issueAccessCode(database.db, { level: "Architect" });
    for (let i = 0; i < ACCOUNT_FREE_ATTEMPTS; i++) {
      expect((await login({ login: code.login, password: `wrong-${i}` })).status).toBe(401);
    }
    const owner = from();
    // The delay counts from the window's start: the guesses above may take over a second on a
    // slow machine, so the window is made to start now.
    const account = and(eq(rateLimitCounters.bucket, "reader-login-account"), eq(rateLimitCounters.key, code.login.toLowerCase()));
    await database.db.update(rateLimitCounters).set({ windowStart: new Date() }).where(account);
    const slowed = await login({ login: code.login, password: code.password }, owner);
    expect(slowed.status).toBe(429);
    const firstWait = Number(slowed.headers.get("retry-after"));
    expect(firstWait).toBeGreaterThanOrEqual(1);
    expect(firstWait).toBeLessThanOrEqual(1);
    // 1.5 s later one more guess gets through; the next must then wait longer.
    await database.db.update(rateLimitCounters).set({ windowStart: new Date(Date.now() - 1500) }).where(account);
    expect((await login({ login: code.login, password: "one more guess" })).status).toBe(401);
    const slower = await login({ login: code.login, password: code.password }, owner);
    expect(slower.status).toBe(429);
    expect(Number(slower.headers.get("retry-after"))).toBeGreaterThan(firstWait);
    // Many guesses later (the 20th let through just now, 304 s into the window), the wait is still
    // at most a minute.
    expect(earliestAttemptMs(loginLimits("reader").byAccount, 20)).toBe(303_000);
    await database.db.update(rateLimitCounters).set({ count: 20, windowStart: new Date(Date.now() - 304_000) }).where(account);
    const capped = await login({ login: code.login, password: code.password }, owner);
    expect(capped.status).toBe(429);
    expect(Number(capped.headers.get("retry-after"))).toBeGreaterThan(50);
    expect(Number(capped.headers.get("retry-after"))).toBeLessThanOrEqual(ACCOUNT_MAX_DELAY_MS / 1000);
    // The refused attempts never counted against the owner's address: once the account may be
    // tried again, the owner gets in.
    await database.db.update(rateLimitCounters).set({ windowStart: new Date(Date.now() - 16 * 60 * 1000) }).where(account);
    expect((await login({ login: code.login, password: code.password }, owner)).status).toBe(200);
  });

  it("locks a client address out after 5 failures across logins", async () => {
    const headers = from();
    for (let i = 0; i < 5; i++) {
      expect((await login({ login: `Guess${i}000`, password: "x" }, headers)).status).toBe(401);
    }
    const code = await issueAccessCode(database.db, { level: "Architect" });
    expect((await login({ login: code.login, password: code.password }, headers)).status).toBe(429);
    expect((await login({ login: code.login, password: code.password })).status).toBe(200);
  });

  it("treats tampered, expired, wrongly signed, wrong-audience and alg=none tokens as no session", async () => {
    const { cookie, code } = await loginAs(api, database.db, "Mastermind");
    const [name, token] = cookie.split("=") as [string, string];
    const [header, payload, signature] = token.split(".") as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as { jti: string };
    const flip = (s: string) => (s[0] === "A" ? "B" : "A") + s.slice(1);
    const now = Math.floor(Date.now() / 1000);
    const forged = {
      tamperedSignature: `${header}.${payload}.${flip(signature)}`,
      tamperedPayload: `${header}.${Buffer.from(JSON.stringify({ ...claims, kind: "admin" })).toString("base64url")}.${signature}`,
      expired: await new SignJWT({ kind: "reader" })
        .setProtectedHeader({ alg: "HS256" })
        .setJti(claims.jti)
        .setIssuer(ISSUER)
        .setAudience(audience("reader"))
        .setExpirationTime(now - 60)
        .sign(sessionKey()),
      wrongKey: await new SignJWT({ kind: "reader" })
        .setProtectedHeader({ alg: "HS256" })
        .setJti(claims.jti)
        .setIssuer(ISSUER)
        .setAudience(audience("reader"))
        .setExpirationTime(now + 3600)
        .sign(new TextEncoder().encode("a-completely-different-secret-of-32-bytes!")),
      wrongAudience: await new SignJWT({ kind: "reader" })
        .setProtectedHeader({ alg: "HS256" })
        .setJti(claims.jti)
        .setIssuer(ISSUER)
        .setAudience(audience("admin"))
        .setExpirationTime(now + 3600)
        .sign(sessionKey()),
      noExpiry: await new SignJWT({ kind: "reader" })
        .setProtectedHeader({ alg: "HS256" })
        .setJti(claims.jti)
        .setIssuer(ISSUER)
        .setAudience(audience("reader"))
        .sign(sessionKey()),
      algNone: new UnsecuredJWT({ kind: "reader" })
        .setJti(claims.jti)
        .setIssuer(ISSUER)
        .setAudience(audience("reader"))
        .setExpirationTime(now + 3600)
        .encode(),
    };
    expect(await sessionWith(cookie)).toEqual({ authenticated: true, level: "Mastermind", noteChapters: [], unreadMessages: 0 });
    for (const [kind, bad] of Object.entries(forged)) {
      expect(await sessionWith(`${name}=${bad}`), kind).toEqual({ authenticated: false, level: null });
      const chapter = await api(`/api/chapters/${mastermindChapter.slug}`, { headers: { cookie: `${name}=${bad}` } });
      expect(chapter.status, kind).toBe(401);
    }
    expect(code.level).toBe("Mastermind");
  });

  it("logout revokes the session: the old token opens nothing", async () => {
    const { cookie } = await loginAs(api, database.db, "Architect");
    expect((await api(`/api/chapters/${architectChapter.slug}`, { headers: { cookie } })).status).toBe(200);
    const out = await api("/api/auth/logout", { method: "POST", headers: { cookie } });
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie()).toEqual(["sb_reader=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0", "sb_signed_in=; Path=/; SameSite=Lax; Max-Age=0"]);
    expect(await sessionWith(cookie)).toEqual({ authenticated: false, level: null });
    expect((await api(`/api/chapters/${architectChapter.slug}`, { headers: { cookie } })).status).toBe(401);
  });

  it("keeps the readable 'signed in' cookie in step with the session when asked about it, and sets nothing for anonymous callers", async () => {
    const anonymous = await api("/api/auth/session");
    expect(await anonymous.json()).toEqual({ authenticated: false, level: null });
    expect(anonymous.headers.getSetCookie()).toEqual([]);
    // A session from before that cookie existed gets it, for what is left of the session.
    const { cookie } = await loginAs(api, database.db, "Architect");
    const renewed = await api("/api/auth/session", { headers: { cookie } });
    const [signedIn] = renewed.headers.getSetCookie();
    expect(signedIn).toMatch(/^sb_signed_in=1; Path=\/; SameSite=Lax; Max-Age=\d+$/);
    expect(Number(/Max-Age=(\d+)/.exec(signedIn!)![1])).toBeGreaterThan(29 * 24 * 3600);
    // A leftover cookie of a session that ended is cleared with the session cookie.
    await api("/api/auth/logout", { method: "POST", headers: { cookie } });
    const ended = await api("/api/auth/session", { headers: { cookie: `${cookie}; sb_signed_in=1` } });
    expect(ended.headers.getSetCookie()).toEqual(["sb_reader=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0", "sb_signed_in=; Path=/; SameSite=Lax; Max-Age=0"]);
  });

  it("deactivating a code ends its sessions at once", async () => {
    const { cookie, code } = await loginAs(api, database.db, "Architect");
    await setAccessCodeActive(database.db, code.login, false);
    expect(await sessionWith(cookie)).toEqual({ authenticated: false, level: null });
    expect((await api(`/api/chapters/${architectChapter.slug}`, { headers: { cookie } })).status).toBe(401);
  });

  it("gates locked chapters and their subsections on the server by level", async () => {
    const list = (await (await api("/api/chapters")).json()) as Array<{ id: number; slug: string }>;
    const idOf = (slug: string) => list.find((c) => c.slug === slug)!.id;
    const architect = await loginAs(api, database.db, "Architect");
    const mastermind = await loginAs(api, database.db, "Mastermind");
    const operator = await loginAs(api, database.db, "Operator");
    const cases: Array<[string | null, string, number]> = [
      [null, architectChapter.slug, 401],
      [null, mastermindChapter.slug, 401],
      [operator.cookie, architectChapter.slug, 403],
      [architect.cookie, architectChapter.slug, 200],
      [architect.cookie, mastermindChapter.slug, 403],
      [mastermind.cookie, architectChapter.slug, 200],
      [mastermind.cookie, mastermindChapter.slug, 200],
    ];
    for (const [cookie, slug, status] of cases) {
      const headers = cookie ? { cookie } : undefined;
      const chapter = book.find((c) => c.slug === slug)!;
      const one = await api(`/api/chapters/${slug}`, { headers });
      const parts = await api(`/api/chapters/${idOf(slug)}/subsections`, { headers });
      expect(one.status, `${slug} ${cookie ? "signed in" : "anonymous"}`).toBe(status);
      expect(parts.status).toBe(status);
      const bodies = (await one.text()) + (await parts.text());
      const sentence = chapter.subsections[0]!.content.slice(0, 80);
      if (status === 200) expect(bodies).toContain(sentence);
      else {
        expect(bodies).not.toContain(sentence);
        expect(bodies).not.toContain(chapter.content.slice(0, 80));
      }
    }
  });
});

describe("configuration", () => {
  it("refuses a short SESSION_SECRET and demands one on Netlify", () => {
    expect(() => readConfig({ SESSION_SECRET: "short" }, "local")).toThrow(/SESSION_SECRET must be at least 32 bytes/);
    const url = "postgres://x@y/z";
    expect(() => readConfig({ DATABASE_URL: url }, "netlify-functions")).toThrow(/SESSION_SECRET is not set/);
    expect(readConfig({ DATABASE_URL: url, SESSION_SECRET: "x".repeat(32) }, "netlify-functions").secureCookies).toBe(true);
  });

  it("knows Netlify from what each platform really gives, and never falls back there", () => {
    const secret = "x".repeat(32);
    // NETLIFY exists only during Netlify's build; functions see the `Netlify` global instead.
    expect(currentPlatform({ NETLIFY: "true" })).toBe("netlify-build");
    expect(currentPlatform({})).toBe("local");
    vi.stubGlobal("Netlify", { env: { toObject: () => ({}) }, context: null });
    try {
      expect(currentPlatform({})).toBe("netlify-functions");
    } finally {
      vi.unstubAllGlobals();
    }
    // No embedded database on Netlify, at build or at run time.
    expect(() => readConfig({ SESSION_SECRET: secret }, "netlify-functions")).toThrow(/DATABASE_URL is not set.*Functions scope/);
    expect(() => readConfig({ CONTEXT: "production" }, "netlify-build")).toThrow(/DATABASE_URL is not set/);
    // Without a build hook production still serves: only publishing the static pages needs it,
    // and the publish status says so (src/server/publish/state.ts).
    const runtime = { DATABASE_URL: "postgres://x@y/z", SESSION_SECRET: secret };
    expect(readConfig(runtime, "netlify-functions", "production").buildHookUrl).toBeUndefined();
    expect(readConfig(runtime, "netlify-functions", "deploy-preview").deployContext).toBe("deploy-preview");
    // Netlify's read-only URL is the site's address when SITE_URL is not set.
    expect(readConfig({ ...runtime, URL: "https://book.example" }, "netlify-functions").siteUrl).toBe("https://book.example");
    expect(readConfig({ URL: "https://book.example" }, "local").siteUrl).toBeUndefined();
  });
});
