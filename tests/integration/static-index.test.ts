import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "../../src/server/db/orm.ts";
import { openDatabase, type DatabaseHandle } from "../../src/server/db/client.ts";
import { chapters, subsections } from "../../src/server/db/schema.ts";
import { createChapter, createSubsection } from "../support/factories.ts";
import { snapshotStamp, takeSnapshot } from "../../src/server/build/snapshot.ts";
import { operatorRecords, type IndexRecord } from "../../src/server/build/search-records.ts";
import { DELTA_MAX_CHAPTERS, updateSearchIndex, writeSearchIndex } from "../../src/server/build/static-index.ts";
import { SEARCH_DELTA_FILE } from "../../src/lib/search-delta.ts";

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openDatabase({ driver: "pglite", dataDir: null });
  await database.migrate();
});
afterAll(() => database?.close());

describe("the static search index follows the open level", () => {
  it("a text edit of the open level or a subsection moved out of it changes the snapshot (a build follows); a locked level's edit does not", async () => {
    const open = await createChapter(database.db, { level: "Operator", slug: "open-one", title: "Open One", content: "## Begin\n\nOpen **words**." });
    const locked = await createChapter(database.db, { level: "Mastermind", slug: "locked-one", content: "Locked words." });
    const part = await createSubsection(database.db, open.id, { slug: "moving", title: "Moving", content: "A part that will be [locked](cta:schedule)." });
    const stamp = async () => snapshotStamp(await takeSnapshot(database.db));

    const before = await stamp();
    const records = await operatorRecords(database.db);
    // Each record carries its chapter's text stamp (the browser compares it with the live list's).
    const textStamp = records[0]!.meta.stamp;
    expect(textStamp).toMatch(/^[0-9a-f]{12}$/);
    expect(records).toEqual([
      { url: "/open-one", content: "Open One Begin Open words.", language: "en", meta: { title: "Open One", chapter: "Open One", level: "Operator", stamp: textStamp } },
      { url: "/open-one#moving", content: "Moving A part that will be locked.", language: "en", meta: { title: "Moving", chapter: "Open One", level: "Operator", stamp: textStamp } },
    ]);

    // A locked chapter's text is in no record: editing it needs no build.
    await database.db.update(chapters).set({ content: "Other locked words." }).where(eq(chapters.id, locked.id));
    expect(await stamp()).toBe(before);

    // New words of the open level must become searchable: the stamp changes, so a build follows.
    await database.db.update(subsections).set({ content: "Edited words." }).where(eq(subsections.id, part.id));
    const edited = await stamp();
    expect(edited).not.toBe(before);
    expect((await takeSnapshot(database.db)).searchRecords.map((r) => r.content)).toContain("Moving Edited words.");

    await database.db.update(subsections).set({ chapterId: locked.id }).where(eq(subsections.id, part.id));
    expect(await stamp()).not.toBe(edited);
    expect((await operatorRecords(database.db)).map((r) => r.url)).toEqual(["/open-one"]);
  });
});

describe("a build whose pages were current brings the index up to date with a delta (decision 0030)", () => {
  const record = (slug: string, stamp: string, words: string): IndexRecord => ({
    url: `/${slug}`,
    content: words,
    language: "en",
    meta: { title: slug, chapter: slug, level: "Operator", stamp },
  });
  const book = (count: number, changed: Record<number, string> = {}) =>
    Array.from({ length: count }, (_, i) => record(`chapter-${i}`, changed[i] ? `changed${i}` : `stamp${i}`, changed[i] ?? `Words of chapter ${i}.`));
  const files = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).map(String).sort() : []);
  const delta = (site: string) => JSON.parse(fs.readFileSync(path.join(site, "pagefind", SEARCH_DELTA_FILE), "utf8")) as { chapters: number };
  /** The delta's records, by address (its fragments hold each record's address). */
  const deltaUrls = (site: string) =>
    files(path.join(site, "pagefind-delta", "fragment"))
      .map((name) => JSON.parse(gunzipSync(fs.readFileSync(path.join(site, "pagefind-delta", "fragment", name))).toString("utf8").replace(/^pagefind_dcd/, "")) as { url: string })
      .map((fragment) => fragment.url)
      .sort();

  it("keeps the whole index, indexes only the edited chapters beside it, and writes the whole index again when a chapter leaves or past DELTA_MAX_CHAPTERS", async () => {
    const site = fs.mkdtempSync(path.join(os.tmpdir(), "sb-index-"));
    try {
      await writeSearchIndex(book(40), site);
      expect(delta(site)).toEqual({ chapters: 0 });
      const whole = fs.readFileSync(path.join(site, "pagefind", "pagefind-entry.json"), "utf8");

      // Two chapters edited: the whole index stays as it was; the delta holds those two, and no code.
      // The files then hold both texts of those two chapters (the publish status counts the earlier ones).
      expect(await updateSearchIndex(book(40, { 3: "Quixotic words.", 7: "Other words." }), site)).toEqual({
        whole: false,
        deltaChapters: 2,
        textStamps: [...Array.from({ length: 40 }, (_, i) => `stamp${i}`), "changed3", "changed7"].sort(),
      });
      expect(fs.readFileSync(path.join(site, "pagefind", "pagefind-entry.json"), "utf8")).toBe(whole);
      expect(delta(site)).toEqual({ chapters: 2 });
      expect(deltaUrls(site)).toEqual(["/chapter-3", "/chapter-7"]);
      expect(files(path.join(site, "pagefind-delta")).filter((name) => /\.js$|^wasm\./.test(name))).toEqual([]);

      // One of them back to its indexed text: the delta holds the other only.
      expect(await updateSearchIndex(book(40, { 7: "Other words." }), site)).toMatchObject({ whole: false, deltaChapters: 1 });
      expect(deltaUrls(site)).toEqual(["/chapter-7"]);

      // Nothing changed since the whole index: no delta at all.
      expect(await updateSearchIndex(book(40), site)).toMatchObject({ whole: false, deltaChapters: 0 });
      expect(delta(site)).toEqual({ chapters: 0 });
      expect(fs.existsSync(path.join(site, "pagefind-delta"))).toBe(false);

      // A chapter gone from the open level (moved, deleted, a draft again): its text leaves the files now, whole.
      expect(await updateSearchIndex(book(39, { 3: "Quixotic words." }), site)).toMatchObject({ whole: true, deltaChapters: 0 });
      expect(fs.readFileSync(path.join(site, "pagefind", "pagefind-entry.json"), "utf8")).not.toBe(whole);
      expect(delta(site)).toEqual({ chapters: 0 });
      expect(fs.existsSync(path.join(site, "pagefind-delta"))).toBe(false);

      // Past DELTA_MAX_CHAPTERS changed chapters, the whole index is written again.
      const many = Object.fromEntries(Array.from({ length: DELTA_MAX_CHAPTERS + 2 }, (_, i) => [i, `Changed ${i}.`]));
      expect(await updateSearchIndex(book(39, many), site)).toMatchObject({ whole: true, deltaChapters: 0 });

      // A site written before the delta (no record of what its index holds): written again whole.
      fs.rmSync(path.join(site, ".search-stamps.json"));
      expect(await updateSearchIndex(book(39, { 1: "Once more." }), site)).toMatchObject({ whole: true, deltaChapters: 0 });
    } finally {
      fs.rmSync(site, { recursive: true, force: true });
    }
  });
});
