import { SignJWT, UnsecuredJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { loadBook } from "../../src/server/content/book.ts";
import { seed } from "../../src/server/content/seed.ts";
import { readConfig, useConfig, config } from "../../src/server/config.ts";
import { sessionKey } from "../../src/server/auth/secret.ts";
import { audience, ISSUER } from "../../src/server/auth/session.ts";
import * as passwords from "../../src/server/auth/password.ts";
import { rateLimitHits } from "../../src/server/db/schema.ts";
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
    const cookie = response.headers.getSetCookie()[0]!;
    expect(cookie).toMatch(/^sb_reader=[\w-]+\.[\w-]+\.[\w-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
    expect(cookie).not.toContain("Secure");
    expect(await sessionWith(cookieOf(response))).toEqual({ authenticated: true, level: "Architect" });
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

  it("refuses a deactivated code like a wrong password", async () => {
    const code = await issueAccessCode(database.db, { level: "Architect" });
    await setAccessCodeActive(database.db, code.login, false);
    expect((await login({ login: code.login, password: code.password })).status).toBe(401);
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
    expect(await sessionWith(cookie)).toEqual({ authenticated: true, level: "Architect" });
  });

  it("locks a login out after 5 failures in 15 minutes, with Retry-After, even for the right password", async () => {
    const code = await issueAccessCode(database.db, { level: "Architect" });
    for (let i = 0; i < 5; i++) {
      expect((await login({ login: code.login, password: `wrong-${i}` })).status).toBe(401);
    }
    const locked = await login({ login: code.login, password: code.password });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(800);
    expect(Number(locked.headers.get("retry-after"))).toBeLessThanOrEqual(900);
    // The state is in the database: another server instance on it refuses too.
    const otherInstance = await apiClient(database);
    const again = await otherInstance("/api/auth/validate", jsonPost({ login: code.login, password: code.password }, from()));
    expect(again.status).toBe(429);
    // Once the failures are older than the window, the right password works again.
    await database.db.update(rateLimitHits).set({ at: new Date(Date.now() - 16 * 60 * 1000) });
    expect((await login({ login: code.login, password: code.password })).status).toBe(200);
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
    expect(await sessionWith(cookie)).toEqual({ authenticated: true, level: "Mastermind" });
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
    expect(out.headers.getSetCookie()[0]).toMatch(/^sb_reader=; Path=\/; HttpOnly; SameSite=Lax; Max-Age=0/);
    expect(await sessionWith(cookie)).toEqual({ authenticated: false, level: null });
    expect((await api(`/api/chapters/${architectChapter.slug}`, { headers: { cookie } })).status).toBe(401);
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
    expect(() => readConfig({ SESSION_SECRET: "short" })).toThrow(/SESSION_SECRET must be at least 32 bytes/);
    expect(() => readConfig({ NETLIFY: "true", DATABASE_URL: "postgres://x@y/z" })).toThrow(/SESSION_SECRET is not set/);
    expect(readConfig({ NETLIFY: "true", DATABASE_URL: "postgres://x@y/z", SESSION_SECRET: "x".repeat(32) }).secureCookies).toBe(true);
  });
});
