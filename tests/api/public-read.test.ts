import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../../src/server/content/seed.ts";
import { loadBook } from "../../src/server/content/book.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";
import { apiClient, type Api } from "../support/api.ts";

const book = loadBook();

describe.each(databaseTargets())("public read API on $name", (target) => {
  let database: TestDatabase;
  let api: Api;
  beforeAll(async () => {
    database = await target.open();
    await seed(database.db, book);
    api = await apiClient(database);
  });
  afterAll(() => database?.dispose());

  it("GET /api/health reports the database", async () => {
    const response = await api("/api/health");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", database: target.name });
  });

  it("GET /api/chapters lists every seed chapter with its level and no content (an Operator one with its text stamp)", async () => {
    const response = await api("/api/chapters");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const list = (await response.json()) as Array<Record<string, unknown>>;
    expect(list.map((c) => c.slug)).toEqual(book.map((c) => c.slug));
    for (const chapter of list) {
      const open = chapter.level === "Operator";
      expect(Object.keys(chapter).sort()).toEqual(["id", "level", "order", "readingTime", "slug", ...(open ? ["textStamp"] : []), "title"]);
      if (open) expect(chapter.textStamp).toMatch(/^[0-9a-f]{12}$/);
    }
  });

  it("GET /api/chapters/{slug} answers an Operator chapter with its content", async () => {
    const first = book[0]!;
    const response = await api(`/api/chapters/${first.slug}`);
    expect(response.status).toBe(200);
    const chapter = (await response.json()) as Record<string, unknown>;
    expect(chapter).toMatchObject({ slug: first.slug, title: first.title, level: "Operator", content: first.content });
  });

  it("serves Architect and Mastermind content to nobody without access, with no content in the body", async () => {
    const locked = book.filter((c) => c.level !== "Operator");
    expect(locked.length).toBeGreaterThan(0);
    const list = (await (await api("/api/chapters")).json()) as Array<{ id: number; slug: string }>;
    for (const chapter of locked) {
      const response = await api(`/api/chapters/${chapter.slug}`);
      expect([401, 403, 404]).toContain(response.status);
      const body = await response.text();
      expect(body).not.toContain(chapter.content.slice(0, 60));
      const id = list.find((c) => c.slug === chapter.slug)!.id;
      const parts = await api(`/api/chapters/${id}/subsections`);
      expect([401, 403, 404]).toContain(parts.status);
      const partsBody = await parts.text();
      for (const part of chapter.subsections) expect(partsBody).not.toContain(part.content.slice(0, 60));
    }
  });

  it("GET /api/chapters/{chapterId}/subsections lists them in order", async () => {
    const list = (await (await api("/api/chapters")).json()) as Array<{ id: number; slug: string }>;
    const first = book[0]!;
    const response = await api(`/api/chapters/${list.find((c) => c.slug === first.slug)!.id}/subsections`);
    expect(response.status).toBe(200);
    const parts = (await response.json()) as Array<{ title: string; order: number }>;
    expect(parts.map((p) => p.title)).toEqual(first.subsections.map((p) => p.title));
  });

  it.each([
    ["/api/chapters/no-such-chapter", 404, "not_found"],
    ["/api/chapters/NOT%20A%20SLUG", 404, "not_found"],
    ["/api/chapters/999999/subsections", 404, "not_found"],
    ["/api/chapters/abc/subsections", 400, "bad_request"],
    ["/api/chapters/-1/subsections", 400, "bad_request"],
    ["/api/chapters/99999999999/subsections", 400, "bad_request"],
    ["/api/no-such-route", 404, "not_found"],
  ])("GET %s answers %i with a JSON error", async (pathname, status, code) => {
    const response = await api(pathname);
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe(code);
    expect(body.error.message.length).toBeGreaterThan(5);
  });

  it("answers 405 with Allow for a method a route does not take", async () => {
    const response = await api("/api/chapters", { method: "DELETE" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET");
  });
});

describe("the seed", () => {
  it("never writes over existing data", async () => {
    const [target] = databaseTargets();
    const database = await target!.open();
    try {
      expect(await seed(database.db, book)).toEqual({ inserted: book.length, skipped: 0 });
      expect(await seed(database.db, book)).toEqual({ inserted: 0, skipped: book.length });
    } finally {
      await database.dispose();
    }
  });

  it("book has the levels, markup and calls to action the product needs", () => {
    const count = (level: string) => book.filter((c) => c.level === level).length;
    expect(count("Operator")).toBeGreaterThanOrEqual(4);
    expect(count("Architect")).toBeGreaterThanOrEqual(3);
    expect(count("Mastermind")).toBeGreaterThanOrEqual(2);
    const all = book.flatMap((c) => [c.content, ...c.subsections.map((s) => s.content)]).join("\n\n");
    for (const form of [/^## /m, /^### /m, /^> /m, /^- /m, /\*\*[^*]+\*\*/, /\n\n/]) expect(all).toMatch(form);
    for (const action of ["schedule", "transform", "assessment"]) expect(all).toContain(`(cta:${action})`);
    for (const chapter of book) {
      expect(chapter.subsections.length).toBeGreaterThanOrEqual(2);
      expect(chapter.subsections.length).toBeLessThanOrEqual(4);
      expect(chapter.readingTime).toBeGreaterThan(0);
    }
    const photos = book.flatMap((c) => c.subsections).filter((s) => s.photo);
    expect(photos.length).toBeGreaterThan(0);
    for (const part of photos) expect(fs.existsSync(path.join("public", part.photo!))).toBe(true);
  });
});
