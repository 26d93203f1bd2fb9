import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "../../src/server/db/orm.ts";
import { openDatabase, type DatabaseHandle } from "../../src/server/db/client.ts";
import { chapters, subsections } from "../../src/server/db/schema.ts";
import { createChapter, createSubsection } from "../support/factories.ts";
import { snapshotStamp, takeSnapshot } from "../../src/server/build/snapshot.ts";
import { operatorRecords, type IndexRecord } from "../../src/server/build/search-records.ts";
import { DELTA_MAX_CHAPTERS, updateSearchIndex, writeSearchIndex } from "../../src/server/build/static-index.ts";
import { recordFile, SEARCH_ENTRY, termsFile, type IndexedRecord, type SearchEntry, type TermRow } from "../../src/lib/static-search-index.ts";
import { chunksNeeded, queryWords, rank } from "../../src/islands/reader/search/static-search.ts";

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
      { url: "/open-one", content: "Open One Begin Open words.", meta: { title: "Open One", chapter: "Open One", level: "Operator", stamp: textStamp } },
      { url: "/open-one#moving", content: "Moving A part that will be locked.", meta: { title: "Moving", chapter: "Open One", level: "Operator", stamp: textStamp } },
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

/** A site's search entry, and the files of the index it names, read as the browser reads them. */
const entryOf = (site: string) => JSON.parse(fs.readFileSync(path.join(site, SEARCH_ENTRY), "utf8")) as SearchEntry;
const read = <T>(site: string, file: string) => JSON.parse(fs.readFileSync(path.join(site, file), "utf8")) as T;

/** What the search box finds in the site's files for `query` (src/islands/reader/search/sources.ts), as addresses. */
function find(site: string, query: string): string[] {
  const entry = entryOf(site);
  const parts = entry.delta ? [entry.whole, entry.delta] : [entry.whole];
  const words = queryWords(query);
  const loaded = parts.map((part) => ({ records: part.records, rows: chunksNeeded(part, words).flatMap((k) => read<TermRow[]>(site, termsFile(part.id, k))) }));
  return rank(words, loaded, 12).map(({ part, record }) => read<IndexedRecord>(site, recordFile(parts[part]!.id, record)).url);
}

describe("the static search index (decision 0031)", () => {
  it("finds the passages that hold every word, best first, accents forgiven, from the files the browser reads", async () => {
    const site = fs.mkdtempSync(path.join(os.tmpdir(), "sb-index-"));
    const record = (url: string, title: string, text: string): IndexRecord => ({ url, content: `${title} ${text}`, meta: { title, chapter: "C", level: "Operator", stamp: "s" } });
    try {
      await writeSearchIndex(
        [
          record("/a", "Where Attention Goes", "Attention is the budget you spend every day."),
          record("/a#ledger", "The Attention Ledger", "A ledger of where your attention went, kept for a week."),
          record("/b", "Habits", "Zażółć gęślą jaźń: widać ślady jeża. Old habits hold."),
          ...Array.from({ length: 40 }, (_, i) => record(`/c${i}#p`, `Filler ${i}`, `Words of filler passage ${i}, nothing else.`)),
        ],
        site,
      );
      expect(find(site, "attention")).toEqual(["/a", "/a#ledger"]);
      expect(find(site, "attention ledger")).toEqual(["/a#ledger"]);
      expect(find(site, "att")).toEqual(["/a", "/a#ledger"]);
      expect(find(site, "habit")).toEqual(["/b"]);
      expect(find(site, "zazolc jeza")).toEqual(["/b"]);
      expect(find(site, "filler 7")).toEqual(["/c7#p"]);
      expect(find(site, "quixotic")).toEqual([]);
      // The record a result shows: its address, titles, its chapter's text stamp and its text.
      const entry = entryOf(site);
      expect(entry).toMatchObject({ whole: { records: 43, chapters: 42 }, delta: null });
      expect(read<IndexedRecord>(site, recordFile(entry.whole.id, 1))).toEqual({
        url: "/a#ledger",
        title: "The Attention Ledger",
        chapter: "C",
        stamp: "s",
        content: "The Attention Ledger A ledger of where your attention went, kept for a week.",
      });
    } finally {
      fs.rmSync(site, { recursive: true, force: true });
    }
  });
});

describe("a build whose pages were current brings the index up to date with a delta (decision 0030)", () => {
  const record = (slug: string, stamp: string, words: string): IndexRecord => ({
    url: `/${slug}`,
    content: words,
    meta: { title: slug, chapter: slug, level: "Operator", stamp },
  });
  const book = (count: number, changed: Record<number, string> = {}) =>
    Array.from({ length: count }, (_, i) => record(`chapter-${i}`, changed[i] ? `changed${i}` : `stamp${i}`, changed[i] ?? `Words of chapter ${i}.`));
  const folders = (site: string) => fs.readdirSync(path.join(site, "search-index")).filter((name) => !name.startsWith("entry.json")).sort();
  /** The delta's records, by address. */
  const deltaUrls = (site: string) => {
    const delta = entryOf(site).delta!;
    return Array.from({ length: delta.records }, (_, n) => read<IndexedRecord>(site, recordFile(delta.id, n)).url).sort();
  };

  it("keeps the whole index, indexes only the edited chapters beside it, and writes the whole index again when a chapter leaves or past DELTA_MAX_CHAPTERS", async () => {
    const site = fs.mkdtempSync(path.join(os.tmpdir(), "sb-index-"));
    try {
      await writeSearchIndex(book(40), site);
      const whole = entryOf(site).whole;
      expect(entryOf(site).delta).toBeNull();
      expect(folders(site)).toEqual([whole.id]);

      // Two chapters edited: the whole index stays as it was; the delta holds those two.
      // The files then hold both texts of those two chapters (the publish status counts the earlier ones).
      expect(await updateSearchIndex(book(40, { 3: "Quixotic words.", 7: "Other words." }), site)).toEqual({
        whole: false,
        deltaChapters: 2,
        textStamps: [...Array.from({ length: 40 }, (_, i) => `stamp${i}`), "changed3", "changed7"].sort(),
      });
      expect(entryOf(site).whole).toEqual(whole);
      expect(entryOf(site).delta).toMatchObject({ chapters: 2, records: 2 });
      expect(deltaUrls(site)).toEqual(["/chapter-3", "/chapter-7"]);
      expect(folders(site)).toEqual([whole.id, entryOf(site).delta!.id].sort());
      // The words are found in the delta; the whole index's record of the chapter holds the old ones.
      expect(find(site, "quixotic")).toEqual(["/chapter-3"]);
      expect(find(site, "chapter 3")).toEqual(["/chapter-3"]);

      // One of them back to its indexed text: the delta holds the other only.
      expect(await updateSearchIndex(book(40, { 7: "Other words." }), site)).toMatchObject({ whole: false, deltaChapters: 1 });
      expect(deltaUrls(site)).toEqual(["/chapter-7"]);
      expect(folders(site)).toHaveLength(2);

      // Nothing changed since the whole index: no delta at all.
      expect(await updateSearchIndex(book(40), site)).toMatchObject({ whole: false, deltaChapters: 0 });
      expect(entryOf(site)).toEqual({ whole, delta: null });
      expect(folders(site)).toEqual([whole.id]);

      // A chapter gone from the open level (moved, deleted, a draft again): its text leaves the files now, whole.
      expect(await updateSearchIndex(book(39, { 3: "Quixotic words." }), site)).toMatchObject({ whole: true, deltaChapters: 0 });
      expect(entryOf(site).whole.id).not.toBe(whole.id);
      expect(entryOf(site).delta).toBeNull();
      expect(folders(site)).toEqual([entryOf(site).whole.id]);

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
