/**
 * GET /api/search: the locked levels' full-text search, only for a session that may read them,
 * on every database. An anonymous or Architect reader never receives Mastermind text, and no
 * reader receives a draft's words (issue 21: 1). The live chapter list's text stamps, against
 * which the browser checks the static index of the open level (issue 21: 2).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadBook } from "../../src/server/content/book.ts";
import { seed } from "../../src/server/content/seed.ts";
import { SEARCH_LIMIT } from "../../src/server/api/search.ts";
import type { SearchResult } from "../../src/lib/search-query.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";
import { apiClient, type Api } from "../support/api.ts";
import { loginAs } from "../support/auth.ts";
import { createChapter, createSubsection } from "../support/factories.ts";
import { operatorRecords } from "../../src/server/build/search-records.ts";
import { eq } from "../../src/server/db/orm.ts";
import { chapters, subsections } from "../../src/server/db/schema.ts";
import { chapterSlugOf } from "../../src/islands/reader/search/merge-results.ts";
import { ACCENTED_LETTERS, FOLDED_LETTERS, foldAccents } from "../../src/lib/accent-folding.ts";
import { sql } from "../../src/server/db/orm.ts";

const book = loadBook();

/** Distinctive runs of words of every Mastermind chapter and subsection of the seed. */
const mastermindTexts = book
  .filter((c) => c.level === "Mastermind")
  .flatMap((c) => [c.content, ...c.subsections.map((s) => s.content)])
  .map((text) => (text.match(/[A-Za-z][A-Za-z ]{30,}[A-Za-z]/g) ?? []).sort((a, b) => b.length - a.length)[0]!);

describe.each(databaseTargets())("search on $name", (target) => {
  let database: TestDatabase;
  let api: Api;
  let cookies: Record<"Operator" | "Architect" | "Mastermind", string>;
  const search = async (q: string, cookie?: string, address = "198.51.100.1") =>
    api(`/api/search?q=${encodeURIComponent(q)}`, { headers: { ...(cookie ? { cookie } : {}), "x-nf-client-connection-ip": address } });
  const results = async (q: string, cookie: string) => {
    const response = await search(q, cookie);
    expect(response.status).toBe(200);
    return ((await response.json()) as { results: SearchResult[] }).results;
  };

  beforeAll(async () => {
    database = await target.open();
    await seed(database.db, book);
    api = await apiClient(database);
    const architect = await createChapter(database.db, { level: "Architect", slug: "quartz-architect", title: "The Quartz Desk", content: "Opening words." });
    await createSubsection(database.db, architect.id, { slug: "compass", title: "Compass", content: "The **zephyrquartz** compass points at the habits you keep without noticing them at all." });
    const mastermind = await createChapter(database.db, { level: "Mastermind", slug: "quartz-mastermind", title: "The Quartz Room", content: "Before the vestibulumx." });
    await createSubsection(database.db, mastermind.id, { slug: "lantern", title: "Lantern", content: "A zephyrquartz lantern shows the decision you keep postponing, and why you postpone it." });
    const gone = await createChapter(database.db, { level: "Mastermind", slug: "quartz-deleted", title: "Deleted", content: "A zephyrquartz that was deleted.", deletedAt: new Date() });
    expect(gone.deletedAt).not.toBeNull();
    await createChapter(database.db, { level: "Operator", slug: "quartz-open", content: "An open zephyrquartz sentence." });
    cookies = {
      Operator: (await loginAs(api, database.db, "Operator")).cookie,
      Architect: (await loginAs(api, database.db, "Architect")).cookie,
      Mastermind: (await loginAs(api, database.db, "Mastermind")).cookie,
    };
  });
  afterAll(() => database?.dispose());

  it("answers 401 without a session, and nothing for an Operator code", async () => {
    const anonymous = await search("zephyrquartz");
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: { code: string } }).error.code).toBe("unauthenticated");
    expect(await results("zephyrquartz", cookies.Operator)).toEqual([]);
  });

  it("finds an Architect passage for an Architect reader, linking to its subsection with a marked snippet", async () => {
    const found = await results("zephyrquartz", cookies.Architect);
    expect(found).toEqual([
      {
        url: "/quartz-architect#compass",
        level: "Architect",
        chapter: "The Quartz Desk",
        title: "Compass",
        // The whole text (all but its final stop): no ellipsis (issue 34: 9).
        snippet: [{ text: "The " }, { text: "zephyrquartz", mark: true }, { text: " compass points at the habits you keep without noticing them at all" }],
      },
    ]);
  });

  it("finds Mastermind passages too for a Mastermind reader, by word stem and by the prefix being typed", async () => {
    const found = await results("zephyrquartz", cookies.Mastermind);
    expect(found.map((r) => r.url).sort()).toEqual(["/quartz-architect#compass", "/quartz-mastermind#lantern"]);
    // "postpones" and "postponing" share a stem; "lant" is the start of a word being typed.
    expect((await results("postpones", cookies.Mastermind)).map((r) => r.url)).toContain("/quartz-mastermind#lantern");
    expect((await results("zephyrquartz lant", cookies.Mastermind)).map((r) => r.url)).toEqual(["/quartz-mastermind#lantern"]);
    // A chapter's own text links to the chapter.
    expect((await results("vestibulumx", cookies.Mastermind)).map((r) => r.url)).toEqual(["/quartz-mastermind"]);
  });

  it("never answers Mastermind text to an anonymous or an Architect reader", async () => {
    expect(mastermindTexts.length).toBeGreaterThanOrEqual(3);
    for (const text of mastermindTexts) {
      const words = text.split(" ").slice(0, 6).join(" ");
      const anonymous = await search(words);
      expect(anonymous.status).toBe(401);
      expect(await anonymous.text()).not.toContain(text.slice(0, 30));
      const architect = await search(words, cookies.Architect);
      expect(architect.status).toBe(200);
      const body = await architect.text();
      expect(body).not.toContain(text.slice(0, 30));
      for (const result of (JSON.parse(body) as { results: SearchResult[] }).results) expect(result.level).toBe("Architect");
      // The Mastermind reader does find it: the check above is not vacuous.
      const mastermind = (await results(words, cookies.Mastermind)).filter((r) => r.level === "Mastermind");
      expect(mastermind.length, words).toBeGreaterThan(0);
    }
  });

  it("never answers Operator or deleted text (Operator is the static index's), nor whole texts", async () => {
    const found = await results("zephyrquartz", cookies.Mastermind);
    expect(found.every((r) => r.level !== "Operator")).toBe(true);
    expect(JSON.stringify(found)).not.toContain("deleted");
    const long = book.find((c) => c.level === "Mastermind")!;
    const word = long.content.match(/[A-Za-z]{6,}/)![0];
    const cut = await results(word, cookies.Mastermind);
    expect(cut.length).toBeGreaterThan(0);
    for (const result of cut) {
      expect(result.snippet.map((p) => p.text).join("").split(" ").length).toBeLessThanOrEqual(40);
    }
    // A snippet cut out of a longer text says so with an ellipsis, at the end it was cut (issue 34: 9).
    const texts = cut.map((result) => result.snippet.map((p) => p.text).join(""));
    expect(texts.some((text) => text.startsWith("…") || text.endsWith("…"))).toBe(true);
  });

  it("never answers a draft's words, to any reader: a draft chapter and its parts, a draft subsection, a pending edit (issue 21: 1)", async () => {
    const canary = "draftcanaryzq";
    const db = database.db;
    const draftChapter = await createChapter(db, { level: "Architect", slug: "canary-draft", title: "Draft Room", status: "draft", content: `A ${canary} chapter nobody may read yet.` });
    await createSubsection(db, draftChapter.id, { slug: "inside", title: "Inside", content: `A published part inside a draft chapter: ${canary}.` });
    const live = await createChapter(db, { level: "Mastermind", slug: "canary-live", title: "Live Room", content: "Published words only." });
    const draftPart = await createSubsection(db, live.id, { slug: "unready", title: "Unready", status: "draft", content: `An unpublished ${canary} part.` });
    const edited = await createSubsection(db, live.id, { slug: "edited", title: "Edited", content: "Its live words." });
    // Pending edits of published items (issue 14) wait in their `draft` column.
    await db.update(chapters).set({ draft: { slug: live.slug, title: live.title, content: `Pending ${canary} words.`, level: "Mastermind" } }).where(eq(chapters.id, live.id));
    await db.update(subsections).set({ draft: { slug: "edited", title: "Edited", content: `A pending ${canary} edit.` } }).where(eq(subsections.id, edited.id));

    const anonymous = await search(canary);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).not.toContain(canary);
    for (const level of ["Operator", "Architect", "Mastermind"] as const) {
      for (const q of [canary, `${canary} inside`, "unpublished part", "pending edit", "nobody may read"]) {
        const response = await search(q, cookies[level]);
        expect(response.status).toBe(200);
        const body = await response.text();
        expect((JSON.parse(body) as { results: SearchResult[] }).results, `${q} for ${level}`).toEqual([]);
        expect(body).not.toContain(canary);
      }
    }

    // Once published, the same words are found: the checks above are not vacuous.
    await db.update(subsections).set({ status: "published" }).where(eq(subsections.id, draftPart.id));
    await db.update(chapters).set({ status: "published" }).where(eq(chapters.id, draftChapter.id));
    expect((await results(canary, cookies.Mastermind)).map((r) => r.url).sort()).toEqual(["/canary-draft", "/canary-draft#inside", "/canary-live#unready"]);
    expect((await results(canary, cookies.Architect)).map((r) => r.url).sort()).toEqual(["/canary-draft", "/canary-draft#inside"]);
  });

  it("gives each Operator chapter of the live list the text stamp the static index holds, which any change of its words changes (issue 21: 2)", async () => {
    const db = database.db;
    const listed = async () => (await (await api("/api/chapters")).json()) as Array<{ slug: string; level: string; textStamp?: string }>;
    const records = async (slug: string) => (await operatorRecords(db)).filter((r) => chapterSlugOf(r.url) === slug);

    // The seed: every Operator chapter's stamp is the one its records carry; a locked chapter has none.
    const all = await operatorRecords(db);
    const list = await listed();
    expect(list.filter((c) => c.textStamp).length).toBeGreaterThanOrEqual(3);
    for (const chapter of list) {
      if (chapter.level !== "Operator") expect(chapter).not.toHaveProperty("textStamp");
      else for (const record of all.filter((r) => chapterSlugOf(r.url) === chapter.slug)) expect(record.meta.stamp, chapter.slug).toBe(chapter.textStamp);
    }

    const open = await createChapter(db, { level: "Operator", slug: "stamped", title: "Stamped", content: "Ünïcode words — “quoted” ✓." });
    const part = await createSubsection(db, open.id, { slug: "first", title: "First", content: "First part.", order: 1 });
    const second = await createSubsection(db, open.id, { slug: "second", title: "Second", content: "Second part.", order: 2 });
    const stamp = async () => {
      const entry = (await listed()).find((c) => c.slug === "stamped")!;
      for (const record of await records("stamped")) expect(record.meta.stamp).toBe(entry.textStamp);
      return entry.textStamp;
    };
    const first = await stamp();
    expect(first).toMatch(/^[0-9a-f]{12}$/);
    expect(await records("stamped")).toHaveLength(3);

    // What changes no searchable word changes no stamp: a reorder, a draft part, pending edits, a photo, the reading time.
    await db.update(subsections).set({ order: 5 }).where(eq(subsections.id, part.id));
    await createSubsection(db, open.id, { slug: "later", status: "draft", content: "Not published yet." });
    await db.update(chapters).set({ draft: { content: "Pending." }, readingTime: 9 }).where(eq(chapters.id, open.id));
    await db.update(subsections).set({ draft: { content: "Pending part." }, photo: "/images/a.jpg" }).where(eq(subsections.id, second.id));
    expect(await stamp()).toBe(first);

    // Any change of the words does: the chapter's text or title, a part's text, a part added or deleted.
    const seen = new Set([first]);
    const changes: Array<[string, () => Promise<unknown>]> = [
      ["chapter text", () => db.update(chapters).set({ content: "Other words." }).where(eq(chapters.id, open.id))],
      ["chapter title", () => db.update(chapters).set({ title: "Restamped" }).where(eq(chapters.id, open.id))],
      ["part text", () => db.update(subsections).set({ content: "Edited part." }).where(eq(subsections.id, part.id))],
      ["part title", () => db.update(subsections).set({ title: "Renamed" }).where(eq(subsections.id, second.id))],
      ["part added", () => createSubsection(db, open.id, { slug: "third", content: "A third part." })],
      ["part deleted", () => db.update(subsections).set({ deletedAt: new Date() }).where(eq(subsections.id, part.id))],
    ];
    for (const [what, change] of changes) {
      await change();
      const now = await stamp();
      expect(seen.has(now!), what).toBe(false);
      seen.add(now!);
    }
    // Moved out of the open level: no stamp, no records.
    await db.update(chapters).set({ level: "Architect" }).where(eq(chapters.id, open.id));
    expect((await listed()).find((c) => c.slug === "stamped")).not.toHaveProperty("textStamp");
    expect(await records("stamped")).toEqual([]);
  });

  it("forgives accents (issue 44: 5): 'jeza' finds 'jeża' and 'zazolc' the chapter 'Zażółć gęślą jaźń', its snippet as written", async () => {
    const db = database.db;
    const chapter = await createChapter(db, { level: "Mastermind", slug: "zazolc-gesla-jazn", title: "Zażółć gęślą jaźń", content: "Pangram pełen ogonków." });
    await createSubsection(db, chapter.id, { slug: "slady", title: "Ślady", content: "Widać w ogrodzie ślady jeża, który przyszedł nocą." });
    const urls = async (q: string, level: "Architect" | "Mastermind" = "Mastermind") => (await results(q, cookies[level])).map((r) => r.url);

    // The chapter's own address, its words without accents, with them, and as the prefix being typed.
    for (const q of ["zazolc", "Zazolc gesla jazn", "zazolc-gesla-jazn", "ZAŻÓŁĆ", "gęślą", "zazo"]) expect(await urls(q), q).toEqual(["/zazolc-gesla-jazn"]);
    for (const q of ["jeza", "jeża", "slady jeza", "jez"]) expect(await urls(q), q).toEqual(["/zazolc-gesla-jazn#slady"]);
    // Only for a reader of the level.
    expect(await urls("jeza", "Architect")).toEqual([]);

    // The snippet shows the text as written, the match marked where the folded word was found.
    const [found] = await results("jeza", cookies.Mastermind);
    expect(found!.snippet).toEqual([
      { text: "Widać w ogrodzie ślady " },
      { text: "jeża", mark: true },
      { text: ", który przyszedł nocą" },
    ]);
  });

  it("ranks a passage holding the words as typed, accents and all, first (issue 44: 5)", async () => {
    const db = database.db;
    // Written without accents, earlier in the book and holding the folded word more often: by rank
    // and order alone it would come first.
    const first = await createChapter(db, { level: "Architect", slug: "bez-ogonkow", title: "Bez ogonków", order: 0, content: "Intro." });
    await createSubsection(db, first.id, { slug: "kolce", title: "Kolce", order: 0, content: "Pisane bez ogonków: kolce jeza, nora jeza, jeza nocą, trop jeza." });
    const later = await createChapter(db, { level: "Architect", slug: "z-ogonkami", title: "Z ogonkami", order: 999, content: "Intro." });
    await createSubsection(db, later.id, { slug: "kolce", title: "Kolce", order: 0, content: "Kolce jeżą się u jeża, gdy ktoś podejdzie za blisko, a potem długo nic." });

    const urls = async (q: string) => (await results(q, cookies.Architect)).map((r) => r.url);
    expect(await urls("jeża")).toEqual(["/z-ogonkami#kolce", "/bez-ogonkow#kolce"]);
    expect(await urls("kolce jeża")).toEqual(["/z-ogonkami#kolce", "/bez-ogonkow#kolce"]);
    // Typed without accents, the passage that holds them so comes first.
    expect(await urls("jeza")).toEqual(["/bez-ogonkow#kolce", "/z-ogonkami#kolce"]);
  });

  it("folds accents in SQL as the browser does (src/lib/accent-folding.ts), letter for letter, in the expression its indexes hold", async () => {
    const db = database.db;
    const fold = async (text: string) => ((await db.execute(sql`SELECT fold_accents(${text}) AS folded`)) as unknown as { rows: Array<{ folded: string }> }).rows[0]!.folded;
    expect(await fold(ACCENTED_LETTERS)).toBe(FOLDED_LETTERS);
    expect(await fold(ACCENTED_LETTERS)).toBe(foldAccents(ACCENTED_LETTERS));
    // (Beyond the list, the browser folds more: as the static index does, every letter Unicode decomposes.)
    for (const text of ["Zażółć gęślą jaźń", "Crème brûlée, Smørrebrød, Dvořák, Đoković", "ß æ œ 東京 ✓ plain"]) expect(await fold(text), text).toBe(foldAccents(text));

    // The search's folded text is the one the GIN indexes hold: the planner uses them.
    const plan = await db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL enable_seqscan = off`);
      const explain = (table: string) =>
        tx.execute(sql.raw(`EXPLAIN SELECT 1 FROM ${table} t WHERE to_tsvector('english', fold_accents(t.title || ' ' || t.content)) @@ to_tsquery('english', 'jeza')`));
      const rows = [...((await explain("chapters")) as unknown as { rows: object[] }).rows, ...((await explain("subsections")) as unknown as { rows: object[] }).rows];
      return rows.map((row) => Object.values(row).join("")).join("\n");
    });
    expect(plan).toContain("chapters_search_idx");
    expect(plan).toContain("subsections_search_idx");
  });

  it("reads a query as words only, and refuses one that is too long", async () => {
    expect(await results("", cookies.Mastermind)).toEqual([]);
    expect(await results("'\"&|!():*<-> \\", cookies.Mastermind)).toEqual([]);
    expect((await results("zephyrquartz & !lantern", cookies.Mastermind)).map((r) => r.url)).toEqual(["/quartz-mastermind#lantern"]);
    const tooLong = await search("a".repeat(201), cookies.Mastermind);
    expect(tooLong.status).toBe(400);
    expect(((await tooLong.json()) as { error: { message: string } }).error.message).toMatch(/at most 200 characters/);
  });

  it("limits an address to its allowance even when the requests come at once", async () => {
    const address = `198.51.100.${target.name === "pglite" ? 50 : target.name === "pg" ? 51 : 52}`;
    const statuses = await Promise.all(
      Array.from({ length: SEARCH_LIMIT.max + 5 }, () => search("zephyrquartz", cookies.Architect, address).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(SEARCH_LIMIT.max);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
  });
});
