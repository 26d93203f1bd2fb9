/**
 * The publish status and every save tell what a site built now would hold without rendering the
 * open level's text (`currentContent`): it must say exactly what a snapshot says (`siteContentOf`),
 * through every kind of change, or the status would call a current site outdated, or the reverse.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currentContent, siteContentOf, takeSnapshot } from "../../src/server/build/snapshot.ts";
import { seed } from "../../src/server/content/seed.ts";
import { openDatabase, type DatabaseHandle } from "../../src/server/db/client.ts";
import { eq, sql } from "../../src/server/db/orm.ts";
import { chapters, subsections } from "../../src/server/db/schema.ts";
import { createScratchDatabase, testDatabaseUrl } from "../support/databases.ts";
import { createChapter, createSubsection } from "../support/factories.ts";

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openDatabase({ driver: "pglite", dataDir: null });
  await database.migrate();
  await seed(database.db);
});
afterAll(() => database?.close());

describe("currentContent", () => {
  it("says what a snapshot says, through every kind of change", async () => {
    const agree = async () => {
      const [cheap, full] = [await currentContent(database.db), siteContentOf(await takeSnapshot(database.db))];
      expect(cheap).toEqual(full);
      return cheap.stamp;
    };
    const stamps = [await agree()];
    const chapter = await createChapter(database.db, { level: "Operator", slug: "stamped", title: "Stamped", content: "Words." });
    stamps.push(await agree());
    const part = await createSubsection(database.db, chapter.id, { slug: "a-part", title: "A Part", content: "More words." });
    stamps.push(await agree());
    await database.db.update(subsections).set({ content: "Other words." }).where(eq(subsections.id, part.id));
    stamps.push(await agree());
    await database.db.update(chapters).set({ order: 500 }).where(eq(chapters.id, chapter.id));
    stamps.push(await agree());
    await database.db.update(chapters).set({ level: "Mastermind" }).where(eq(chapters.id, chapter.id));
    stamps.push(await agree());
    // Each change moved the stamp.
    expect(new Set(stamps).size).toBe(stamps.length);
    // A locked chapter's text is in no index: its edit moves nothing.
    await database.db.update(chapters).set({ content: "Locked words, edited." }).where(eq(chapters.id, chapter.id));
    expect(await agree()).toBe(stamps.at(-1));
  });

  it("reads the text once per content version: asked again with nothing written, it answers what it read; any write reads anew", async () => {
    const first = await currentContent(database.db);
    expect(await currentContent(database.db)).toBe(first);
    // A write by a road of its own (plain SQL, as the book import or a restore writes) moves the version on.
    const [open] = await database.db.select({ id: chapters.id }).from(chapters).where(eq(chapters.level, "Operator")).limit(1);
    await database.db.execute(sql`update chapters set content = content || ' One more sentence.' where id = ${open!.id}`);
    const after = await currentContent(database.db);
    expect(after).not.toBe(first);
    expect(after.stamp).not.toBe(first.stamp);
    expect(after).toEqual(siteContentOf(await takeSnapshot(database.db)));
  });
});

/**
 * As on Netlify: two instances, each with a connection of its own to one PostgreSQL. What one keeps
 * is read anew once the other writes (the content version is the database's, not the instance's).
 */
describe.skipIf(!testDatabaseUrl())("currentContent on two connections to PostgreSQL", () => {
  it("reads anew on one connection after a write through the other", async () => {
    const scratch = await createScratchDatabase(testDatabaseUrl()!);
    const [one, other] = [await openDatabase({ driver: "pg", url: scratch.url }), await openDatabase({ driver: "pg", url: scratch.url })];
    try {
      await one.migrate();
      await seed(one.db);
      const kept = await currentContent(one.db);
      expect(await currentContent(one.db)).toBe(kept);
      const [open] = await other.db.select({ id: chapters.id }).from(chapters).where(eq(chapters.level, "Operator")).limit(1);
      await other.db.update(chapters).set({ content: "Written through the other instance." }).where(eq(chapters.id, open!.id));
      const after = await currentContent(one.db);
      expect(after.stamp).not.toBe(kept.stamp);
      expect(after).toEqual(siteContentOf(await takeSnapshot(other.db)));
    } finally {
      await Promise.all([one.close(), other.close()]);
      await scratch.drop();
    }
  });
});
