/**
 * The members' notebook on the server (issues 32 and 42): only the session's own code, ciphertext
 * in and out, gating by passage and level, the version check (also under saves sent at once),
 * versions that only move forward, the notebook a save was sealed for, the recovery key's
 * keeping, the limits, same-site checks on every door, the export an ended code's member takes
 * away (sign-in's own budget, 410 once the 30 days are over) and retention 30 days after access
 * ends. On PGlite, and on PostgreSQL through pg and Neon. Notes are sealed here as the browser
 * seals them (src/lib/notebook/crypto.ts, WebCrypto in Node too).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNotebook as makeKeys, openNote, sealNote, type NotePlain, type WrappedKeys } from "../../src/lib/notebook/crypto.ts";
import { eq, sql } from "../../src/server/db/orm.ts";
import { accessCodes, chapters, notes, rateLimitCounters, subsections } from "../../src/server/db/schema.ts";
import { runRetention } from "../../src/server/maintenance/retention.ts";
import { MAX_NOTES, NOTE_SAVE_LIMIT } from "../../src/server/notebook/notebook.ts";
import { resetAccessCodePassword, setAccessCodeActive } from "../../src/server/repositories/access-codes.ts";
import { apiClient, type Api } from "../support/api.ts";
import { cookieOf, jsonPost, loginAs } from "../support/auth.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";
import { createChapter, createSubsection } from "../support/factories.ts";

const PASSPHRASE = "a passphrase only I know";

// One notebook key (and its wrapping) for every member of this file: deriving the passphrase's key
// (PBKDF2, 600,000 iterations) costs about half a second each time, and the server only keeps
// the bytes. Tests that need a key of their own (another notebook) make one.
const shared = makeKeys(PASSPHRASE);

describe.each(databaseTargets())("the notebook on $name", (target) => {
  let database: TestDatabase;
  let api: Api;
  beforeAll(async () => {
    database = await target.open();
    api = await apiClient(database);
  });
  afterAll(() => database?.dispose());

  const send = (path: string, cookie: string, method = "GET", body?: unknown) =>
    api(path, { method, headers: { cookie, ...(body === undefined ? {} : { "content-type": "application/json" }) }, body: body === undefined ? undefined : JSON.stringify(body) });

  /** A member with a notebook: their cookie, code, and the notebook key (as their browser holds it). */
  async function member(level: "Operator" | "Architect" | "Mastermind" = "Architect") {
    const signedIn = await loginAs(api, database.db, level as "Architect");
    const { key, wrapped } = await shared;
    const created = await send("/api/notebook", signedIn.cookie, "POST", wrapped);
    expect(created.status, await created.clone().text()).toBe(201);
    const notebook = ((await created.json()) as { notebook: { id: string } }).notebook.id;
    return { ...signedIn, key, wrapped, notebook };
  }

  const plain = (text: string, chapter: { slug: string; title: string }, part: { slug: string; title: string }): NotePlain => ({
    text,
    title: part.title,
    chapterSlug: chapter.slug,
    chapterTitle: chapter.title,
    sectionSlug: part.slug,
    level: "Architect",
  });

  type Member = { cookie: string; key: CryptoKey; notebook: string };
  async function save(one: Member, subsectionId: number, version: number, note: NotePlain, notebook = one.notebook) {
    return send(`/api/notebook/notes/${subsectionId}`, one.cookie, "PUT", { notebook, version, ...(await sealNote(one.key, { notebook, subsectionId, version: version + 1 }, note)) });
  }
  const at = (one: Member, subsectionId: number, version: number) => ({ notebook: one.notebook, subsectionId, version });

  it("answers only a signed-in member, and only about their own notebook", async () => {
    for (const [path, method] of [["/api/notebook", "GET"], ["/api/notebook", "POST"], ["/api/notebook", "DELETE"], ["/api/notebook/notes", "GET"], ["/api/notebook/notes/1", "PUT"]] as const) {
      const answer = await api(path, { method, headers: method === "GET" || method === "DELETE" ? {} : { "content-type": "application/json" }, body: method === "POST" || method === "PUT" ? "{}" : undefined });
      expect(answer.status, `${method} ${path}`).toBe(method === "POST" || method === "PUT" ? 400 : 401);
    }
    const one = await member();
    const other = await loginAs(api, database.db, "Architect");
    expect(await (await send("/api/notebook", other.cookie)).json()).toEqual({ notebook: null });
    const mine = (await (await send("/api/notebook", one.cookie)).json()) as { notebook: WrappedKeys & { notes: number; version: number } };
    expect(mine.notebook).toMatchObject({ ...one.wrapped, notes: 0, version: 1 });
  });

  it("starts a notebook once, refuses weak key derivation, and keeps a note's ciphertext as sent", async () => {
    const one = await member();
    expect((await send("/api/notebook", one.cookie, "POST", one.wrapped)).status).toBe(409);
    const fresh = await loginAs(api, database.db, "Architect");
    const weak = (await send("/api/notebook", fresh.cookie, "POST", { ...one.wrapped, iterations: 100_000 })).status;
    expect(weak).toBe(400);

    const chapter = await createChapter(database.db, { level: "Architect" });
    const part = await createSubsection(database.db, chapter.id, { title: "Field notes" });
    const note = plain("Monday, 9 am: it said I was behind before I had begun.", chapter, part);
    const saved = await save(one, part.id, 0, note);
    expect(saved.status, await saved.clone().text()).toBe(200);
    const { note: stored } = (await saved.json()) as { note: { version: number; iv: string; ciphertext: string } };
    expect(stored.version).toBe(1);
    const [row] = await database.db.select().from(notes).where(eq(notes.subsectionId, part.id));
    expect(row).toMatchObject({ version: 1, iv: stored.iv, ciphertext: stored.ciphertext });
    expect(JSON.stringify(row)).not.toContain("behind before");
    // The chapter's notes, opened with the key the member's browser holds.
    const listed = (await (await send(`/api/notebook/notes?chapter=${chapter.slug}`, one.cookie)).json()) as {
      notebook: WrappedKeys;
      notes: Array<{ subsectionId: number; version: number; iv: string; ciphertext: string }>;
    };
    // With the notebook's keys: a chapter page asks once.
    expect(listed.notebook).toMatchObject(one.wrapped);
    expect(listed.notes).toHaveLength(1);
    expect(await openNote(one.key, at(one, part.id, 1), listed.notes[0]!)).toEqual(note);
    // Another member sees none of it.
    const other = await member();
    expect(((await (await send(`/api/notebook/notes?chapter=${chapter.slug}`, other.cookie)).json()) as { notes: unknown[] }).notes).toEqual([]);
  });

  it("refuses a save made from an older version (409 with the current note); of saves sent at once from one version, exactly one is kept", async () => {
    const one = await member();
    const chapter = await createChapter(database.db, { level: "Operator" });
    const part = await createSubsection(database.db, chapter.id);
    expect((await save(one, part.id, 0, plain("first", chapter, part))).status).toBe(200);
    expect((await save(one, part.id, 1, plain("second, from this device", chapter, part))).status).toBe(200);
    const stale = await save(one, part.id, 1, plain("from a device that saw version 1", chapter, part));
    expect(stale.status).toBe(409);
    const refusal = (await stale.json()) as { error: { code: string; current: { version: number; iv: string; ciphertext: string } } };
    expect(refusal.error.code).toBe("note_changed");
    expect(refusal.error.current.version).toBe(2);
    expect((await openNote(one.key, at(one, part.id, 2), refusal.error.current)).text).toBe("second, from this device");

    // Saves sent at once from one version, in a few rounds: each round keeps exactly one.
    for (let version = 2; version < 5; version++) {
      const racing = await Promise.all(Array.from({ length: 6 }, (_, i) => save(one, part.id, version, plain(`device ${i}`, chapter, part))));
      const statuses = racing.map((answer) => answer.status).sort();
      expect(statuses).toEqual([200, 409, 409, 409, 409, 409]);
      const [row] = await database.db.select().from(notes).where(eq(notes.subsectionId, part.id));
      expect(row!.version).toBe(version + 1);
    }
  });

  it("lets a note be written only beside a live passage of a level the member may read", async () => {
    const one = await member("Architect");
    const mastermind = await createChapter(database.db, { level: "Mastermind" });
    const above = await createSubsection(database.db, mastermind.id);
    const open = await createChapter(database.db, { level: "Operator" });
    const draft = await createSubsection(database.db, open.id, { status: "draft" });
    const deleted = await createSubsection(database.db, open.id, { deletedAt: new Date() });
    const draftChapter = await createChapter(database.db, { status: "draft" });
    const inDraftChapter = await createSubsection(database.db, draftChapter.id);
    const note = plain("words", open, { slug: "x", title: "x" });
    expect((await save(one, above.id, 0, note)).status).toBe(403);
    for (const id of [draft.id, deleted.id, inDraftChapter.id, 99_999_999]) expect((await save(one, id, 0, note)).status, String(id)).toBe(404);
    for (const id of ["0", "-1", "abc", "1e3"])
      expect((await send(`/api/notebook/notes/${id}`, one.cookie, "PUT", { notebook: one.notebook, version: 0, iv: "AAAAAAAAAAAAAAAA", ciphertext: "A".repeat(40) })).status, id).toBe(404);
    expect(await database.db.select().from(notes).where(eq(notes.accessCodeId, (await codeId(one.code.login))))).toEqual([]);
  });

  it("refuses malformed and oversized notes and a wrong version with a clear 4xx, changing nothing", async () => {
    const one = await member();
    const chapter = await createChapter(database.db, { level: "Operator" });
    const part = await createSubsection(database.db, chapter.id);
    const put = (body: unknown) => send(`/api/notebook/notes/${part.id}`, one.cookie, "PUT", body);
    const good = { notebook: one.notebook, ...(await sealNote(one.key, at(one, part.id, 1), plain("ok", chapter, part))) };
    for (const [body, status] of [
      [{ notebook: one.notebook, version: 0, iv: good.iv }, 400],
      [{ notebook: one.notebook, version: 0, iv: "not base64!", ciphertext: good.ciphertext }, 400],
      [{ notebook: one.notebook, version: 0, iv: "AAAA", ciphertext: good.ciphertext }, 400],
      [{ notebook: one.notebook, version: 0, iv: good.iv, ciphertext: "not*base64" }, 400],
      [{ ...good, notebook: undefined, version: 0 }, 400],
      [{ ...good, notebook: "not-an-id", version: 0 }, 400],
      [{ version: -1, ...good }, 400],
      [{ version: 5, ...good }, 409],
      [{ notebook: one.notebook, version: 0, iv: good.iv, ciphertext: "A".repeat(300_000) }, 413],
    ] as const) {
      const answer = await put(body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      const error = ((await answer.json()) as { error: { code: string; message: string } }).error;
      expect(error.message.length).toBeGreaterThan(5);
    }
    expect(await database.db.select().from(notes).where(eq(notes.subsectionId, part.id))).toEqual([]);
  });

  it("holds at most 2,000 notes a notebook and limits saves per code", async () => {
    const one = await member();
    const id = await codeId(one.code.login);
    const chapter = await createChapter(database.db, { level: "Operator" });
    const part = await createSubsection(database.db, chapter.id);
    // A full notebook (written straight to the table: 2,000 saves would take the limit's windows).
    await database.db.execute(sql`INSERT INTO ${notes} (access_code_id, subsection_id, version, iv, ciphertext)
      SELECT ${id}, 1000000 + g, 1, 'AAAAAAAAAAAAAAAA', 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' FROM generate_series(1, ${MAX_NOTES}) g`);
    const full = await save(one, part.id, 0, plain("one more", chapter, part));
    expect(full.status).toBe(409);
    expect(((await full.json()) as { error: { code: string } }).error.code).toBe("notebook_full");
    await database.db.execute(sql`DELETE FROM ${notes} WHERE access_code_id = ${id} AND subsection_id = 1000001`);
    expect((await save(one, part.id, 0, plain("now it fits", chapter, part))).status).toBe(200);

    // Room for one more, and new notes on four passages sent at once: one is kept.
    await database.db.execute(sql`DELETE FROM ${notes} WHERE access_code_id = ${id} AND subsection_id = 1000002`);
    const others = await Promise.all(Array.from({ length: 4 }, () => createSubsection(database.db, chapter.id)));
    const racing = await Promise.all(others.map((other, i) => save(one, other.id, 0, plain(`racing ${i}`, chapter, other))));
    expect(racing.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409]);
    const counted = (await database.db.execute(sql`SELECT count(*)::integer AS n FROM ${notes} WHERE access_code_id = ${id}`)) as unknown as { rows: Array<{ n: number }> };
    expect(Number(counted.rows[0]!.n)).toBe(MAX_NOTES);

    // Past the save limit: 429, and nothing written.
    await database.db
      .insert(rateLimitCounters)
      .values({ bucket: NOTE_SAVE_LIMIT.bucket, key: String(id), windowStart: new Date(), count: NOTE_SAVE_LIMIT.max })
      .onConflictDoUpdate({ target: [rateLimitCounters.bucket, rateLimitCounters.key], set: { count: NOTE_SAVE_LIMIT.max, windowStart: new Date() } });
    const limited = await save(one, part.id, 1, plain("too many", chapter, part));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    const [row] = await database.db.select().from(notes).where(eq(notes.subsectionId, part.id));
    expect(row!.version).toBe(1);
  });

  it("keeps a note when its passage moves above the member's level or is deleted: listed with no place, never erased by the book", async () => {
    const one = await member("Architect");
    const chapter = await createChapter(database.db, { level: "Architect", title: "Where I wrote" });
    const part = await createSubsection(database.db, chapter.id, { title: "The passage" });
    const gone = await createSubsection(database.db, chapter.id, { title: "Soon deleted" });
    expect((await save(one, part.id, 0, plain("kept", chapter, part))).status).toBe(200);
    expect((await save(one, gone.id, 0, plain("kept too", chapter, gone))).status).toBe(200);
    const all = async () => ((await (await send("/api/notebook/notes", one.cookie)).json()) as { notes: Array<{ subsectionId: number; place: Record<string, unknown> | null }> }).notes;
    expect((await all()).find((n) => n.subsectionId === part.id)!.place).toMatchObject({ chapterSlug: chapter.slug, chapterTitle: "Where I wrote", level: "Architect", sectionTitle: "The passage", sectionNumber: 1 });

    await database.db.update(chapters).set({ level: "Mastermind" }).where(eq(chapters.id, chapter.id));
    await database.db.delete(subsections).where(eq(subsections.id, gone.id));
    const after = await all();
    expect(after.map((n) => [n.subsectionId, n.place])).toEqual(expect.arrayContaining([[part.id, null], [gone.id, null]]));
    // No title of a passage the member may no longer read leaves the server in the answer.
    expect(JSON.stringify(after)).not.toContain("Where I wrote");
    expect(await database.db.select().from(notes).where(eq(notes.accessCodeId, await codeId(one.code.login)))).toHaveLength(2);
  });

  it("names the chapters holding the member's notes in the session answer, and erases the whole notebook on request", async () => {
    const one = await member();
    const chapter = await createChapter(database.db, { level: "Operator" });
    const part = await createSubsection(database.db, chapter.id);
    expect((await (await send("/api/auth/session", one.cookie)).json()) as { noteChapters: string[] }).toMatchObject({ noteChapters: [] });
    expect((await save(one, part.id, 0, plain("x", chapter, part))).status).toBe(200);
    expect(((await (await send("/api/auth/session", one.cookie)).json()) as { noteChapters: string[] }).noteChapters).toEqual([chapter.slug]);
    const erased = await send("/api/notebook", one.cookie, "DELETE");
    expect(await erased.json()).toEqual({ notes: 1 });
    expect(await (await send("/api/notebook", one.cookie)).json()).toEqual({ notebook: null });
    expect(await database.db.select().from(notes).where(eq(notes.accessCodeId, await codeId(one.code.login)))).toEqual([]);
  });

  it("wraps the key anew only over the version it read (a passphrase replaced on one device at a time)", async () => {
    const one = await member();
    const { wrapped } = await makeKeys("some other passphrase");
    expect((await send("/api/notebook", one.cookie, "PUT", { ...wrapped, version: 1, recoveryKept: true })).status).toBe(200);
    expect((await send("/api/notebook", one.cookie, "PUT", { ...wrapped, version: 1, recoveryKept: true })).status).toBe(409);
    expect(((await (await send("/api/notebook", one.cookie)).json()) as { notebook: { version: number; salt: string } }).notebook).toMatchObject({ version: 2, salt: wrapped.salt });
  });

  it("is unchanged by the operator resetting the code's password or ending its sessions", async () => {
    const one = await member();
    const chapter = await createChapter(database.db, { level: "Operator" });
    const part = await createSubsection(database.db, chapter.id);
    expect((await save(one, part.id, 0, plain("still mine", chapter, part))).status).toBe(200);
    const { password } = await resetAccessCodePassword(database.db, one.code.login);
    expect((await send("/api/notebook", one.cookie)).status).toBe(401);
    const again = cookieOf(await api("/api/auth/validate", jsonPost({ login: one.code.login, password })));
    const book = ((await (await send("/api/notebook", again)).json()) as { notebook: WrappedKeys & { notes: number } }).notebook;
    expect(book).toMatchObject({ ...one.wrapped, notes: 1 });
  });

  it("gives an ended code's member their sealed notebook with the code and password, limited as sign-in is", async () => {
    const one = await member();
    const chapter = await createChapter(database.db, { level: "Architect" });
    const part = await createSubsection(database.db, chapter.id);
    expect((await save(one, part.id, 0, plain("to take away", chapter, part))).status).toBe(200);
    await setAccessCodeActive(database.db, one.code.login, false);
    expect((await send("/api/notebook", one.cookie)).status).toBe(401);
    const address = { "x-nf-client-connection-ip": "198.51.100.77" };
    const exported = await api("/api/notebook/export", jsonPost({ login: one.code.login, password: one.code.password }, address));
    expect(exported.status).toBe(200);
    const body = (await exported.json()) as { notebook: WrappedKeys; notes: Array<{ subsectionId: number; version: number; iv: string; ciphertext: string }> };
    expect(body.notebook).toMatchObject(one.wrapped);
    expect((await openNote(one.key, at(one, part.id, 1), body.notes[0]!)).text).toBe("to take away");
    // Wrong passwords: refused, then limited as sign-in is (5 from one address).
    const wrong = () => api("/api/notebook/export", jsonPost({ login: one.code.login, password: "not it" }, { "x-nf-client-connection-ip": "198.51.100.78" }));
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await wrong()).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    // A code without a notebook: 404, after the password.
    const bare = await loginAs(api, database.db, "Architect");
    expect((await api("/api/notebook/export", jsonPost({ login: bare.code.login, password: bare.code.password }, address))).status).toBe(404);
  });

  it("erases a notebook 30 days after its code's access ended, and not before", async () => {
    const ended = await member();
    const expired = await member();
    const recent = await member();
    const active = await member();
    const now = new Date();
    const daysAgo = (days: number) => new Date(now.getTime() - days * 24 * 3600 * 1000);
    await database.db.update(accessCodes).set({ isActive: "false", deactivatedAt: daysAgo(31) }).where(eq(accessCodes.login, ended.code.login));
    await database.db.update(accessCodes).set({ expiresAt: daysAgo(31) }).where(eq(accessCodes.login, expired.code.login));
    await database.db.update(accessCodes).set({ isActive: "false", deactivatedAt: daysAgo(29) }).where(eq(accessCodes.login, recent.code.login));
    const report = await runRetention(database.db, { now });
    expect(report.notebooks).toBeGreaterThanOrEqual(2);
    const kept = async (login: string) => (await database.db.execute(sql`SELECT 1 FROM notebooks b JOIN access_codes c ON c.id = b.access_code_id WHERE c.login = ${login}`)) as unknown as { rows: unknown[] };
    expect((await kept(ended.code.login)).rows).toHaveLength(0);
    expect((await kept(expired.code.login)).rows).toHaveLength(0);
    expect((await kept(recent.code.login)).rows).toHaveLength(1);
    expect((await kept(active.code.login)).rows).toHaveLength(1);
  });

  it("moves a note's version only forward: an erased note keeps its version, and a note written there again continues past it", async () => {
    const one = await member();
    const chapter = await createChapter(database.db, { level: "Operator" });
    const part = await createSubsection(database.db, chapter.id);
    expect((await save(one, part.id, 0, plain("first words", chapter, part))).status).toBe(200);
    expect((await save(one, part.id, 1, plain("second words", chapter, part))).status).toBe(200);
    const erase = (version: number, notebook = one.notebook) => send(`/api/notebook/notes/${part.id}?version=${version}&notebook=${notebook}`, one.cookie, "DELETE");
    // Only over the version read.
    expect((await erase(1)).status).toBe(409);
    const erased = await erase(2);
    expect(erased.status, await erased.clone().text()).toBe(200);
    expect(((await erased.json()) as { note: { version: number; ciphertext: string | null } }).note).toMatchObject({ version: 3, ciphertext: null, iv: null });
    expect((await erase(3)).status).toBe(404);
    // The chapter's answer names the erased note's version (no words); the notebook counts it out, the session answer and the list too.
    const listed = (await (await send(`/api/notebook/notes?chapter=${chapter.slug}`, one.cookie)).json()) as { notebook: { notes: number }; notes: Array<{ subsectionId: number; version: number; ciphertext: string | null }> };
    expect(listed.notes).toEqual([expect.objectContaining({ subsectionId: part.id, version: 3, ciphertext: null })]);
    expect(listed.notebook.notes).toBe(0);
    expect(((await (await send("/api/notebook/notes", one.cookie)).json()) as { notes: unknown[] }).notes).toEqual([]);
    expect(((await (await send("/api/auth/session", one.cookie)).json()) as { noteChapters: string[] }).noteChapters).toEqual([]);
    // Written again from "nothing" (version 0): refused, the erased note's version in the answer.
    const fromZero = await save(one, part.id, 0, plain("again", chapter, part));
    expect(fromZero.status).toBe(409);
    expect(((await fromZero.json()) as { error: { current: { version: number; ciphertext: string | null } } }).error.current).toMatchObject({ version: 3, ciphertext: null });
    // Over the erased note's version: version 4. Old ciphertexts (versions 1 and 2) never come back as current.
    const again = await save(one, part.id, 3, plain("again", chapter, part));
    expect(again.status).toBe(200);
    expect(((await again.json()) as { note: { version: number } }).note.version).toBe(4);
    const [row] = await database.db.select().from(notes).where(eq(notes.subsectionId, part.id));
    expect(row!.version).toBe(4);
    expect((await openNote(one.key, at(one, part.id, 4), { iv: row!.iv!, ciphertext: row!.ciphertext! })).text).toBe("again");
  });

  it("refuses a save or an erasure sealed for another notebook (erased and started again elsewhere): 409 notebook_changed, nothing written", async () => {
    const one = await member();
    const chapter = await createChapter(database.db, { level: "Operator" });
    const part = await createSubsection(database.db, chapter.id);
    expect((await save(one, part.id, 0, plain("under the first notebook", chapter, part))).status).toBe(200);
    // Another device erases the notebook and starts a new one.
    expect((await send("/api/notebook", one.cookie, "DELETE")).status).toBe(200);
    const { key, wrapped } = await makeKeys("the new notebook's passphrase");
    const restarted = await send("/api/notebook", one.cookie, "POST", wrapped);
    const fresh = ((await restarted.json()) as { notebook: { id: string; recoveryKept: boolean } }).notebook;
    expect(fresh.id).not.toBe(one.notebook);
    // This device, still on the old notebook, saves: refused, whatever version it names.
    for (const version of [0, 1]) {
      const stale = await save(one, part.id, version, plain("still typing here", chapter, part));
      expect(stale.status).toBe(409);
      expect(((await stale.json()) as { error: { code: string } }).error.code).toBe("notebook_changed");
    }
    const staleErase = await send(`/api/notebook/notes/${part.id}?version=1&notebook=${one.notebook}`, one.cookie, "DELETE");
    expect(staleErase.status).toBe(409);
    expect(await database.db.select().from(notes).where(eq(notes.subsectionId, part.id))).toEqual([]);
    // Sealed for the new one: taken.
    expect((await save({ ...one, key, notebook: fresh.id }, part.id, 0, plain("under the new notebook", chapter, part))).status).toBe(200);
  });

  it("starts a notebook with its recovery key not kept, until the member shows it was (over the wrapping it was made for)", async () => {
    const one = await member();
    const get = async () => ((await (await send("/api/notebook", one.cookie)).json()) as { notebook: { version: number; recoveryKept: boolean } }).notebook;
    expect(await get()).toMatchObject({ version: 1, recoveryKept: false });
    expect((await send("/api/notebook/recovery", one.cookie, "PUT", { version: 2 })).status).toBe(409);
    expect((await send("/api/notebook/recovery", one.cookie, "PUT", { version: 0 })).status).toBe(400);
    expect((await send("/api/notebook/recovery", one.cookie, "PUT", { version: 1 })).status).toBe(200);
    expect(await get()).toMatchObject({ version: 1, recoveryKept: true });
    // A new recovery key: not kept until shown so; a passphrase replaced with the recovery key: kept.
    const { wrapped } = await makeKeys("a passphrase, wrapped anew");
    expect((await send("/api/notebook", one.cookie, "PUT", { ...wrapped, version: 1, recoveryKept: false })).status).toBe(200);
    expect(await get()).toMatchObject({ version: 2, recoveryKept: false });
    expect((await send("/api/notebook", one.cookie, "PUT", { ...wrapped, version: 2 })).status).toBe(400);
    expect((await send("/api/notebook", one.cookie, "PUT", { ...wrapped, version: 2, recoveryKept: true })).status).toBe(200);
    expect(await get()).toMatchObject({ version: 3, recoveryKept: true });
    const stranger = await loginAs(api, database.db, "Architect");
    expect((await send("/api/notebook/recovery", stranger.cookie, "PUT", { version: 1 })).status).toBe(404);
  });

  it("refuses every state-changing call from another site, the notebook's DELETEs included, changing nothing", async () => {
    const one = await member();
    const chapter = await createChapter(database.db, { level: "Operator" });
    const part = await createSubsection(database.db, chapter.id);
    expect((await save(one, part.id, 0, plain("stays", chapter, part))).status).toBe(200);
    for (const cross of [{ "sec-fetch-site": "cross-site" }, { origin: "https://elsewhere.example" }] as Array<Record<string, string>>) {
      for (const [path, method] of [
        ["/api/notebook", "DELETE"],
        [`/api/notebook/notes/${part.id}?version=1&notebook=${one.notebook}`, "DELETE"],
        ["/api/notebook/recovery", "PUT"],
        ["/api/auth/logout", "POST"],
      ] as const) {
        const answer = await api(path, { method, headers: { cookie: one.cookie, ...cross, ...(method === "PUT" ? { "content-type": "application/json" } : {}) }, body: method === "PUT" ? JSON.stringify({ version: 1 }) : undefined });
        expect(answer.status, `${method} ${path} ${JSON.stringify(cross)}`).toBe(403);
        expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("cross_site");
      }
    }
    const kept = (await (await send("/api/notebook", one.cookie)).json()) as { notebook: { notes: number; recoveryKept: boolean } };
    expect(kept.notebook).toMatchObject({ notes: 1, recoveryKept: false });
  });

  it("counts the ended-code download's attempts in sign-in's own budget, per address, also for attempts sent at once", async () => {
    const one = await member();
    const address = { "x-nf-client-connection-ip": "203.0.113.41" };
    const wrongLogin = () => api("/api/auth/validate", jsonPost({ login: one.code.login, password: "not the password" }, address));
    const wrongExport = () => api("/api/notebook/export", jsonPost({ login: one.code.login, password: "not the password" }, address));
    // Sent at once through both doors: five failures from one address, then 429, whichever door.
    const answers = await Promise.all([wrongLogin(), wrongExport(), wrongLogin(), wrongExport(), wrongLogin(), wrongExport(), wrongExport()]);
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    // The right password from that address is refused too, at either door, until the window ends.
    expect((await api("/api/notebook/export", jsonPost({ login: one.code.login, password: one.code.password }, address))).status).toBe(429);
    expect((await api("/api/auth/validate", jsonPost({ login: one.code.login, password: one.code.password }, address))).status).toBe(429);
  });

  it("gives an ended code's notebook only within 30 days of the end, checked on the request even if the retention job never ran", async () => {
    const now = Date.now();
    const daysAgo = (days: number) => new Date(now - days * 24 * 3600 * 1000);
    const cases = [
      { set: { isActive: "false", deactivatedAt: daysAgo(31) }, status: 410 },
      { set: { expiresAt: daysAgo(31) }, status: 410 },
      { set: { isActive: "false", deactivatedAt: daysAgo(29) }, status: 200 },
      { set: { expiresAt: daysAgo(29) }, status: 200 },
    ] as const;
    for (const [i, { set, status }] of cases.entries()) {
      const one = await member();
      await database.db.update(accessCodes).set(set).where(eq(accessCodes.login, one.code.login));
      const answer = await api("/api/notebook/export", jsonPost({ login: one.code.login, password: one.code.password }, { "x-nf-client-connection-ip": `198.51.100.${120 + i}` }));
      expect(answer.status, JSON.stringify(set)).toBe(status);
      if (status === 410) {
        const error = ((await answer.json()) as { error: { code: string; message: string } }).error;
        expect(error.code).toBe("notebook_gone");
        expect(error.message).toContain("30 days");
      }
    }
  });

  async function codeId(login: string): Promise<number> {
    const [row] = await database.db.select({ id: accessCodes.id }).from(accessCodes).where(eq(accessCodes.login, login));
    return row!.id;
  }
});
