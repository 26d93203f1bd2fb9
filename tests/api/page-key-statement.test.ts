/**
 * The chapter page's key statement (src/server/repositories/chapters.ts): a named statement,
 * planned once per connection, that reads the chapter and the reader's live session together;
 * and, where a pooler loses named statements, the same read unnamed, with no error to the reader.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueSession } from "../../src/server/auth/session.ts";
import { seed } from "../../src/server/content/seed.ts";
import { connectRemote, type Connection } from "../../src/server/db/remote.ts";
import { eq, sql } from "../../src/server/db/orm.ts";
import { accessCodes, chapters } from "../../src/server/db/schema.ts";
import { issueAccessCode, setAccessCodeActive } from "../../src/server/repositories/access-codes.ts";
import { getChapterPageKey, listChapters, pageKeyStatementName } from "../../src/server/repositories/chapters.ts";
import { createScratchDatabase, databaseTargets, testDatabaseUrl, type TestDatabase } from "../support/databases.ts";
import { statementsOf } from "../support/query-count.ts";

describe.each(databaseTargets())("the chapter page key on $name", (target) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await target.open();
    await seed(database.db);
  });
  afterAll(() => database?.dispose());

  it("answers the chapter and the live session's level, and no level for an ended, expired or unknown session", async () => {
    const { db } = database;
    const [chapter] = await listChapters(db, ["Architect"]);
    const code = await issueAccessCode(db, { level: "Architect" });
    const [row] = await db.select({ id: accessCodes.id }).from(accessCodes).where(eq(accessCodes.login, code.login));
    const { sid } = await issueSession(db, "reader", { accessCodeId: row!.id });
    const key = await getChapterPageKey(db, chapter!.slug, sid);
    expect(key.chapter).toEqual({ id: chapter!.id, level: "Architect" });
    expect(key.readerLevel).toBe("Architect");
    expect(key.version).toBeGreaterThan(0);
    expect((await getChapterPageKey(db, chapter!.slug, null)).readerLevel).toBeNull();
    expect((await getChapterPageKey(db, chapter!.slug, "no-such-session")).readerLevel).toBeNull();
    expect((await getChapterPageKey(db, "no-such-chapter", sid)).chapter).toBeNull();
    // The session's end is its row's: checked at the time asked.
    expect((await getChapterPageKey(db, chapter!.slug, sid, new Date(Date.now() + 31 * 24 * 3600 * 1000))).readerLevel).toBeNull();
    await setAccessCodeActive(db, code.login, false);
    expect((await getChapterPageKey(db, chapter!.slug, sid)).readerLevel).toBeNull();
  });

  it("answers asks made at once in one statement, each with its own chapter and session, read after it was asked", async () => {
    const { db } = database;
    const [architect] = await listChapters(db, ["Architect"]);
    const [mastermind] = await listChapters(db, ["Mastermind"]);
    const session = async (level: "Architect" | "Mastermind") => {
      const code = await issueAccessCode(db, { level });
      const [row] = await db.select({ id: accessCodes.id }).from(accessCodes).where(eq(accessCodes.login, code.login));
      return { ...code, sid: (await issueSession(db, "reader", { accessCodeId: row!.id })).sid };
    };
    const [one, other, ended] = [await session("Architect"), await session("Mastermind"), await session("Mastermind")];
    await setAccessCodeActive(db, ended.login, false);
    const asks: Array<[string, string | null, Date?]> = [
      [architect!.slug, one.sid],
      [mastermind!.slug, other.sid],
      [mastermind!.slug, ended.sid],
      ["no-such-chapter", other.sid],
      [architect!.slug, null],
      [architect!.slug, one.sid, new Date(Date.now() + 31 * 24 * 3600 * 1000)],
    ];
    let keys: Awaited<ReturnType<typeof getChapterPageKey>>[] = [];
    const statements = await statementsOf(async () => {
      keys = await Promise.all(asks.map(([slug, sid, now]) => getChapterPageKey(db, slug, sid, now)));
    });
    expect(statements).toHaveLength(1);
    expect(keys.map((key) => [key.chapter?.id ?? null, key.readerLevel])).toEqual([
      [architect!.id, "Architect"],
      [mastermind!.id, "Mastermind"],
      [mastermind!.id, null],
      [null, "Mastermind"],
      [architect!.id, null],
      [architect!.id, null],
    ]);
    expect(new Set(keys.map((key) => key.version)).size).toBe(1);
    // Each ask is read after it was made: an ask never shares the answer of a statement already on
    // its way, so a code ended meanwhile is seen by the next ask.
    const first = getChapterPageKey(db, architect!.slug, one.sid);
    await new Promise((resolve) => setImmediate(resolve));
    await setAccessCodeActive(db, one.login, false);
    expect((await getChapterPageKey(db, architect!.slug, one.sid)).readerLevel).toBeNull();
    expect((await first).chapter?.id).toBe(architect!.id);
  });
});

describe("the chapter page key on PGlite, kept parsed under its name", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await databaseTargets()[0]!.open();
    await seed(database.db);
  });
  afterAll(() => database?.dispose());

  it("is a named statement of PGlite's, which waits for a transaction under way and reads what it committed", async () => {
    const { db } = database;
    const [chapter] = await listChapters(db, ["Operator"]);
    const before = await getChapterPageKey(db, chapter!.slug);
    const prepared = (await db.execute(sql`SELECT name FROM pg_prepared_statements`)) as unknown as { rows: Array<{ name: string }> };
    const names = prepared.rows.map((row) => row.name).filter((name) => name.startsWith("chapter_page_key"));
    // Named by its text's hash: another deploy's statement of other text, behind a pooler that
    // keeps named statements across clients, never answers under this one's name.
    expect(names).toEqual([expect.stringMatching(/^chapter_page_key_[0-9a-f]{16}$/)]);
    const [text] = ((await db.execute(sql`SELECT statement FROM pg_prepared_statements WHERE name = ${names[0]}`)) as unknown as { rows: Array<{ statement: string }> }).rows;
    expect(names[0]).toBe(pageKeyStatementName(text!.statement));
    expect(pageKeyStatementName(`${text!.statement} `)).not.toBe(names[0]);

    let entered!: () => void;
    let release!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const held = new Promise<void>((resolve) => (release = resolve));
    const writing = db.transaction(async (tx) => {
      await tx.update(chapters).set({ title: "Held open" }).where(eq(chapters.id, chapter!.id));
      entered();
      await held;
    });
    await inside;
    let answered = false;
    const asked = getChapterPageKey(db, chapter!.slug).then((key) => ((answered = true), key));
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Not read inside the open transaction, nor around it: it waits its turn.
    expect(answered).toBe(false);
    release();
    await writing;
    expect((await asked).version).toBeGreaterThan(before.version);
  });

  it("is parsed again, with the same answer, once PGlite has forgotten it", async () => {
    const { db } = database;
    const [chapter] = await listChapters(db, ["Operator"]);
    const first = await getChapterPageKey(db, chapter!.slug);
    await db.execute(sql`DEALLOCATE ALL`);
    expect(await getChapterPageKey(db, chapter!.slug)).toEqual(first);
  });
});

describe.skipIf(!testDatabaseUrl())("the chapter page key where named statements are lost", () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let connection: Connection;
  beforeAll(async () => {
    const { openDatabase } = await import("../../src/server/db/client.ts");
    scratch = await createScratchDatabase(testDatabaseUrl()!);
    const handle = await openDatabase({ driver: "pg", url: scratch.url });
    await handle.migrate();
    await seed(handle.db);
    await handle.close();
    // One connection, so the statement below reaches the connection that holds the named one.
    connection = await connectRemote("pg", scratch.url, { max: 1 });
  });
  afterAll(async () => {
    await connection?.close();
    await scratch?.drop();
  });

  it("reads it unnamed, with the same answer, once the server has forgotten the named statement", async () => {
    const [chapter] = await listChapters(connection.db, ["Operator"]);
    const first = await getChapterPageKey(connection.db, chapter!.slug);
    // What a pooler in transaction mode does: the next statement lands on a connection that never
    // prepared it (PostgreSQL answers 26000).
    await connection.db.execute(sql`DEALLOCATE ALL`);
    expect(await getChapterPageKey(connection.db, chapter!.slug)).toEqual(first);
    expect(await getChapterPageKey(connection.db, chapter!.slug)).toEqual(first);
  });
});
