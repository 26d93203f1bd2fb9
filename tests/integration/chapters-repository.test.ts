import fs from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { migrationsFolder } from "../../src/server/db/client.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chapters, subsections } from "../../src/server/db/schema.ts";
import {
  getChapterById,
  getChapterBySlug,
  listChapters,
  listChaptersWithContent,
  listSubsections,
  listSubsectionsOf,
} from "../../src/server/repositories/chapters.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";
import { createChapter, createSubsection } from "../support/factories.ts";

describe.each(databaseTargets())("chapters repository on $name", (target) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await target.open();
  });
  afterAll(() => database?.dispose());

  it("lists live chapters by level, then order, without content", async () => {
    const { db } = database;
    const mastermind = await createChapter(db, { level: "Mastermind", order: 0 });
    const second = await createChapter(db, { level: "Operator", order: 2 });
    const architect = await createChapter(db, { level: "Architect", order: 1 });
    const first = await createChapter(db, { level: null, order: 1 });
    const deleted = await createChapter(db, { level: "Operator", order: 0, deletedAt: new Date() });

    const list = await listChapters(db);
    expect(list.map((c) => c.id)).toEqual([first.id, second.id, architect.id, mastermind.id]);
    expect(list.map((c) => c.id)).not.toContain(deleted.id);
    // The teaser (null but for a teased locked chapter), never content.
    expect(Object.keys(list[0]!).sort()).toEqual(["id", "level", "order", "readingTime", "slug", "teaser", "title"]);
    expect(list[0]!.teaser).toBeNull();

    expect((await listChapters(db, ["Operator"])).map((c) => c.id)).toEqual([first.id, second.id]);
    expect((await listChaptersWithContent(db, ["Architect"])).map((c) => c.content)).toEqual([architect.content]);
  });

  it("gets a chapter by slug or id, never a deleted one", async () => {
    const { db } = database;
    const live = await createChapter(db);
    const gone = await createChapter(db, { deletedAt: new Date() });
    expect((await getChapterBySlug(db, live.slug))?.id).toBe(live.id);
    expect(await getChapterBySlug(db, gone.slug)).toBeUndefined();
    expect(await getChapterBySlug(db, "no-such-chapter")).toBeUndefined();
    expect((await getChapterById(db, live.id))?.slug).toBe(live.slug);
    expect(await getChapterById(db, gone.id)).toBeUndefined();
    expect(await getChapterBySlug(db, live.slug)).not.toHaveProperty("deletedAt");
  });

  it("lists a chapter's live subsections sorted by order", async () => {
    const { db } = database;
    const chapter = await createChapter(db);
    const c = await createSubsection(db, chapter.id, { order: 3 });
    const a = await createSubsection(db, chapter.id, { order: 1 });
    await createSubsection(db, chapter.id, { order: 2, deletedAt: new Date() });
    const b = await createSubsection(db, chapter.id, { order: 2 });
    expect((await listSubsections(db, chapter.id)).map((s) => s.id)).toEqual([a.id, b.id, c.id]);

    const other = await createChapter(db);
    const grouped = await listSubsectionsOf(db, [chapter.id, other.id]);
    expect(grouped.get(chapter.id)?.map((s) => s.id)).toEqual([a.id, b.id, c.id]);
    expect(grouped.get(other.id)).toEqual([]);
  });

  it("enforces unique chapter slugs and per-chapter subsection slugs", async () => {
    const { db } = database;
    const chapter = await createChapter(db, { slug: "only-once" });
    await expect(createChapter(db, { slug: "only-once" })).rejects.toThrow();
    await createSubsection(db, chapter.id, { slug: "part" });
    await expect(createSubsection(db, chapter.id, { slug: "part" })).rejects.toThrow();
    const other = await createChapter(db);
    await expect(createSubsection(db, other.id, { slug: "part" })).resolves.toBeTruthy();
  });

  it("removes subsections together with their chapter", async () => {
    const { db } = database;
    const chapter = await createChapter(db);
    await createSubsection(db, chapter.id);
    await db.delete(chapters).where(eq(chapters.id, chapter.id));
    const left = await db.select().from(subsections).where(eq(subsections.chapterId, chapter.id));
    expect(left).toEqual([]);
  });

  it("refuses a level outside the three", async () => {
    await expect(createChapter(database.db, { level: "Wizard" })).rejects.toThrow();
  });

  it("applies migrations idempotently: running them twice more changes nothing", async () => {
    const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as { entries: unknown[] };
    const state = async () => {
      const result = await database.db.execute(
        sql`select (select count(*) from information_schema.tables where table_schema = 'public')::int as tables,
                   (select count(*) from drizzle.__drizzle_migrations)::int as applied`,
      );
      return (result as unknown as { rows: Array<{ tables: number; applied: number }> }).rows[0]!;
    };
    const before = await state();
    expect(before.applied).toBe(journal.entries.length);
    await database.migrate();
    await database.migrate();
    expect(await state()).toEqual(before);
  });
});
