/**
 * GET /api/search: the locked levels' full-text search, only for a session that may read them,
 * on every database. An anonymous or Architect reader never receives Mastermind text.
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
    for (const result of await results(word, cookies.Mastermind)) {
      expect(result.snippet.map((p) => p.text).join("").split(" ").length).toBeLessThanOrEqual(40);
    }
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
