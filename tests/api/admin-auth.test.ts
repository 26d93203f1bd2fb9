import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAdminAccount } from "../../src/server/admin/accounts.ts";
import { issueSetupToken, SETUP_TOKEN_TTL_MS } from "../../src/server/admin/setup-token.ts";
import { adminAccounts, adminSetupTokens } from "../../src/server/db/schema.ts";
import { apiClient, type Api } from "../support/api.ts";
import { cookieOf, jsonPost, loginAs } from "../support/auth.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";

describe.each(databaseTargets())("admin sign-in on $name", (target) => {
  let database: TestDatabase;
  let api: Api;
  let address = 0;
  const from = () => ({ "x-nf-client-connection-ip": `198.51.100.${++address}` });

  beforeAll(async () => {
    database = await target.open();
    api = await apiClient(database);
  });
  afterAll(() => database?.dispose());

  const sessionWith = async (cookie?: string) =>
    (await (await api("/api/admin/session", { headers: cookie ? { cookie } : {} })).json()) as {
      authenticated: boolean;
      email: string | null;
      setupRequired: boolean;
    };

  it("creates the first admin once with the setup token, then the link stops working", async () => {
    expect(await sessionWith()).toEqual({ authenticated: false, email: null, setupRequired: true });
    const stale = await issueSetupToken(database.db);
    const token = await issueSetupToken(database.db); // a new start replaces the earlier token
    expect(await database.db.select().from(adminSetupTokens)).toHaveLength(1);
    const [row] = await database.db.select().from(adminSetupTokens);
    expect(row!.tokenHash).not.toContain(token!);

    const wrong = await api("/api/admin/setup", jsonPost({ token: stale, email: "owner@example.com", password: "long-enough-pw" }, from()));
    expect(wrong.status).toBe(403);
    expect(((await wrong.json()) as { error: { message: string } }).error.message).toMatch(/wrong or has expired/);

    const short = await api("/api/admin/setup", jsonPost({ token, email: "owner@example.com", password: "short" }, from()));
    expect(short.status).toBe(400);
    expect(await short.text()).toMatch(/password: Password must be at least 10 characters/);

    const ok = await api("/api/admin/setup", jsonPost({ token, email: "Owner@Example.com", password: "long-enough-pw" }, from()));
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ email: "owner@example.com" });
    expect(await sessionWith(cookieOf(ok))).toEqual({ authenticated: true, email: "owner@example.com", setupRequired: false });
    expect(await sessionWith()).toEqual({ authenticated: false, email: null, setupRequired: false });

    const again = await api("/api/admin/setup", jsonPost({ token, email: "second@example.com", password: "long-enough-pw" }, from()));
    expect(again.status).toBe(403);
    expect(((await again.json()) as { error: { message: string } }).error.message).toMatch(/already exists/);
    expect(await issueSetupToken(database.db)).toBeNull();
  });

  it("refuses an expired setup token", async () => {
    await database.db.delete(adminAccounts);
    const token = await issueSetupToken(database.db, new Date(Date.now() - SETUP_TOKEN_TTL_MS - 1000));
    const response = await api("/api/admin/setup", jsonPost({ token, email: "late@example.com", password: "long-enough-pw" }, from()));
    expect(response.status).toBe(403);
    await createAdminAccount(database.db, { email: "restored@example.com", password: "long-enough-pw" });
  });

  it("lets 5 setup attempts from one address through, sent at once, and refuses the rest with 429", async () => {
    await database.db.delete(adminAccounts);
    await issueSetupToken(database.db);
    const address = { "x-nf-client-connection-ip": "203.0.113.77" };
    const statuses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        api("/api/admin/setup", jsonPost({ token: `guess-${i}`.padEnd(43, "x"), email: "guess@example.com", password: "long-enough-pw" }, address)).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 403)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(3);
    await createAdminAccount(database.db, { email: "restored@example.com", password: "long-enough-pw" });
  });

  it("signs in: 200 {email} and an HttpOnly sb_admin cookie; logout revokes it", async () => {
    await createAdminAccount(database.db, { email: "editor@example.com", password: "editor-password" });
    const response = await api("/api/admin/login", jsonPost({ email: " EDITOR@example.com ", password: "editor-password" }, from()));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ email: "editor@example.com" });
    const header = response.headers.getSetCookie()[0]!;
    expect(header).toMatch(/^sb_admin=[\w-]+\.[\w-]+\.[\w-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
    const cookie = cookieOf(response);
    expect((await sessionWith(cookie)).authenticated).toBe(true);
    expect((await api("/api/admin/chapters", { headers: { cookie } })).status).toBe(200);

    const logout = await api("/api/admin/logout", { method: "POST", headers: { cookie } });
    expect(logout.status).toBe(200);
    expect(await logout.json()).toEqual({ authenticated: false });
    expect(logout.headers.getSetCookie()[0]).toMatch(/^sb_admin=; .*Max-Age=0/);
    expect((await sessionWith(cookie)).authenticated).toBe(false);
    expect((await api("/api/admin/chapters", { headers: { cookie } })).status).toBe(401);
  });

  it("answers an unknown email and a wrong password alike with 401", async () => {
    await createAdminAccount(database.db, { email: "alike@example.com", password: "alike-password" });
    const wrong = await api("/api/admin/login", jsonPost({ email: "alike@example.com", password: "nope-nope-nope" }, from()));
    const unknown = await api("/api/admin/login", jsonPost({ email: "nobody@example.com", password: "nope-nope-nope" }, from()));
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.text()).toBe(await unknown.text());
  });

  it("refuses an address after 5 failures (429 with Retry-After), while the owner elsewhere still signs in", async () => {
    await createAdminAccount(database.db, { email: "locked@example.com", password: "locked-password" });
    const attacker = from();
    for (let i = 0; i < 5; i++) {
      expect((await api("/api/admin/login", jsonPost({ email: "locked@example.com", password: `wrong-${i}` }, attacker))).status).toBe(401);
    }
    const locked = await api("/api/admin/login", jsonPost({ email: "locked@example.com", password: "locked-password" }, attacker));
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(800);
    const owner = await api("/api/admin/login", jsonPost({ email: "locked@example.com", password: "locked-password" }, from()));
    expect(owner.status).toBe(200);
  });

  it("validates the body and refuses cross-site sign-ins", async () => {
    expect((await api("/api/admin/login", jsonPost({ email: "a@example.com" }, from()))).status).toBe(400);
    const cross = await api("/api/admin/login", jsonPost({ email: "a@example.com", password: "x" }, { ...from(), origin: "https://evil.example" }));
    expect(cross.status).toBe(403);
  });

  it("keeps reader and admin sessions apart", async () => {
    const { cookie } = await loginAs(api, database.db, "Mastermind");
    expect(await sessionWith(cookie)).toMatchObject({ authenticated: false });
    expect((await api("/api/admin/chapters", { headers: { cookie } })).status).toBe(403);
  });
});
