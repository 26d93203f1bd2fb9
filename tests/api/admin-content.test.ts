import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { useAdminClock } from "../../src/server/admin/clock.ts";
import { chapters, subsections } from "../../src/server/db/schema.ts";
import { readPublishView } from "../../src/server/publish/state.ts";
import { apiClient, type Api } from "../support/api.ts";
import { adminLogin, asAdmin } from "../support/admin.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";
import { createChapter, createSubsection } from "../support/factories.ts";

type Json = Record<string, unknown>;
const HOUR = 3600 * 1000;

describe.each(databaseTargets())("admin content on $name", (target) => {
  let database: TestDatabase;
  let api: Api;
  let cookie: string;

  beforeAll(async () => {
    database = await target.open();
    api = await apiClient(database);
    ({ cookie } = await adminLogin(api, database.db));
  });
  afterAll(() => database?.dispose());
  afterEach(() => useAdminClock());

  const call = async (path: string, method = "GET", body?: unknown) => {
    const response = await api(path, asAdmin(cookie, method, body));
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as Json & Json[] & { error: { message: string } } };
  };
  const chapterBody = (values: Json = {}) => ({
    slug: `c-${Math.random().toString(36).slice(2, 8)}`,
    title: "A chapter",
    content: "## Heading\n\nBody.",
    readingTime: 5,
    order: 0,
    level: "Operator",
    ...values,
  });

  it("creates, lists (by level then order, with content) and updates a chapter", async () => {
    const created = await call("/api/admin/chapters", "POST", chapterBody({ slug: "first-light", level: "Architect", order: 2 }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ slug: "first-light", level: "Architect", order: 2, content: "## Heading\n\nBody." });
    expect(created.body).not.toHaveProperty("deletedAt");
    await call("/api/admin/chapters", "POST", chapterBody({ slug: "zero-op", order: 9 }));
    await call("/api/admin/chapters", "POST", chapterBody({ slug: "mm-one", level: "Mastermind", order: 0 }));
    const list = await call("/api/admin/chapters");
    expect(list.status).toBe(200);
    const levels = (list.body as unknown as { level: string; content: string }[]).map((c) => c.level);
    expect(levels).toEqual([...levels].sort((a, b) => ["Operator", "Architect", "Mastermind"].indexOf(a) - ["Operator", "Architect", "Mastermind"].indexOf(b)));
    expect((list.body as unknown as { content: string }[]).every((c) => typeof c.content === "string")).toBe(true);

    const updated = await call(`/api/admin/chapters/${created.body.id}`, "PUT", chapterBody({ slug: "first-light", title: "Renamed", level: "Architect" }));
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: created.body.id, title: "Renamed" });
    expect((await readPublishView(database.db)).pending).toBe(true);
  });

  it("validates every field, naming it, and defaults the level to Operator", async () => {
    const cases: [Json, string][] = [
      [{ slug: "" }, "slug: Slug is required"],
      [{ slug: "Bad Slug" }, "slug:"],
      [{ title: "" }, "title:"],
      [{ readingTime: -1 }, "readingTime:"],
      [{ order: "x" }, "order:"],
      [{ level: "Admin" }, "level:"],
      [{ content: "x".repeat(100_001) }, "content:"],
    ];
    for (const [values, message] of cases) {
      const response = await call("/api/admin/chapters", "POST", chapterBody(values));
      expect(response.status, JSON.stringify(values).slice(0, 60)).toBe(400);
      expect(response.body.error.message).toContain(message);
    }
    const { level: _level, ...noLevel } = chapterBody();
    expect((await call("/api/admin/chapters", "POST", noLevel)).body.level).toBe("Operator");
  });

  it("answers 409 for a slug a live chapter holds, on create and update; 404 for unknown ids; 400 for bad ids", async () => {
    await call("/api/admin/chapters", "POST", chapterBody({ slug: "taken" }));
    const clash = await call("/api/admin/chapters", "POST", chapterBody({ slug: "taken" }));
    expect(clash.status).toBe(409);
    expect(clash.body.error.message).toBe('The chapter "A chapter" already has the slug "taken"; choose another slug');
    const other = await call("/api/admin/chapters", "POST", chapterBody());
    expect((await call(`/api/admin/chapters/${other.body.id}`, "PUT", chapterBody({ slug: "taken" }))).status).toBe(409);
    expect((await call("/api/admin/chapters/999999", "PUT", chapterBody())).status).toBe(404);
    expect((await call("/api/admin/chapters/abc", "DELETE")).status).toBe(400);
  });

  it("deletes a chapter with its live subsections (same deletedAt) and restores them within 24 hours", async () => {
    const t0 = new Date("2026-11-20T10:00:00Z");
    const chapter = await createChapter(database.db, { slug: "to-delete" });
    const kept = await createSubsection(database.db, chapter.id);
    const earlier = await createSubsection(database.db, chapter.id, { deletedAt: new Date(t0.getTime() - HOUR) });
    useAdminClock(() => t0);
    expect((await call(`/api/admin/chapters/${chapter.id}`, "DELETE")).body).toEqual({ ok: true });
    const rows = await database.db.select().from(subsections);
    expect(rows.find((r) => r.id === kept.id)!.deletedAt).toEqual(t0);

    useAdminClock(() => new Date(t0.getTime() + 2 * HOUR));
    const deletedChapters = await call("/api/admin/chapters/deleted/recent");
    expect((deletedChapters.body as unknown as { id: number }[])[0]!.id).toBe(chapter.id);
    const deletedSubs = (await call("/api/admin/subsections/deleted/recent")).body as unknown as Json[];
    expect(deletedSubs.map((s) => s.id)).toEqual(expect.arrayContaining([kept.id, earlier.id]));
    expect(deletedSubs.find((s) => s.id === kept.id)).toMatchObject({ chapterId: chapter.id, chapterTitle: chapter.title });

    const restored = await call(`/api/admin/chapters/${chapter.id}/restore`, "PUT");
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ id: chapter.id, slug: "to-delete" });
    const after = await database.db.select().from(subsections);
    expect(after.find((r) => r.id === kept.id)!.deletedAt).toBeNull();
    expect(after.find((r) => r.id === earlier.id)!.deletedAt).not.toBeNull();
    expect((await call(`/api/admin/chapters/${chapter.id}/restore`, "PUT")).status).toBe(404);
  });

  it("refuses to restore after 24 hours, and when a live chapter took the slug", async () => {
    const t0 = new Date("2026-11-20T10:00:00Z");
    useAdminClock(() => t0);
    const old = await createChapter(database.db, { slug: "old-one" });
    await call(`/api/admin/chapters/${old.id}`, "DELETE");
    useAdminClock(() => new Date(t0.getTime() + 24 * HOUR + 1000));
    const late = await call(`/api/admin/chapters/${old.id}/restore`, "PUT");
    expect(late.status).toBe(409);
    expect(late.body.error.message).toContain("more than 24 hours ago");
    expect(((await call("/api/admin/chapters/deleted/recent")).body as unknown as Json[]).some((c) => c.id === old.id)).toBe(false);

    useAdminClock(() => t0);
    const reused = await createChapter(database.db, { slug: "reused" });
    await call(`/api/admin/chapters/${reused.id}`, "DELETE");
    expect((await call("/api/admin/chapters", "POST", chapterBody({ slug: "reused" }))).status).toBe(201);
    const clash = await call(`/api/admin/chapters/${reused.id}/restore`, "PUT");
    expect(clash.status).toBe(409);
    expect(clash.body.error.message).toContain('"reused"');
  });

  it("reorders one level's chapters (1..n) and names what is wrong with a bad id list", async () => {
    await database.db.update(chapters).set({ deletedAt: new Date() });
    const a = await createChapter(database.db, { level: "Architect", order: 1 });
    const b = await createChapter(database.db, { level: "Architect", order: 2 });
    const c = await createChapter(database.db, { level: "Architect", order: 3 });
    const op = await createChapter(database.db, { level: "Operator" });
    const bad: [number[], string][] = [
      [[a.id, b.id], "missing"],
      [[a.id, b.id, c.id, 999999], "not a live chapter"],
      [[a.id, b.id, c.id, op.id], "one level"],
      [[a.id, a.id, b.id, c.id], "more than once"],
    ];
    for (const [ids, message] of bad) {
      const response = await call("/api/admin/chapters/reorder", "PUT", { chapterIds: ids });
      expect(response.status, message).toBe(400);
      expect(response.body.error.message).toContain(message);
    }
    expect((await call("/api/admin/chapters/reorder", "PUT", { chapterIds: [c.id, a.id, b.id] })).body).toEqual({ ok: true });
    const rows = await database.db.select().from(chapters);
    expect([c, a, b].map((x) => rows.find((r) => r.id === x.id)!.order)).toEqual([1, 2, 3]);
  });

  it("creates subsections: slug from the title, order = count of live ones, 409 'duplicate slug'", async () => {
    const chapter = await createChapter(database.db);
    await createSubsection(database.db, chapter.id, { order: 0 });
    await createSubsection(database.db, chapter.id, { order: 1, deletedAt: new Date() });
    const created = await call("/api/admin/subsections", "POST", { chapterId: chapter.id, title: "What Runs You?", content: "Text", photo: "" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ chapterId: chapter.id, slug: "what-runs-you", order: 1, photo: null });
    const dup = await call("/api/admin/subsections", "POST", { chapterId: chapter.id, title: "What runs you", content: "Text" });
    expect(dup.status).toBe(409);
    expect(dup.body.error.message).toContain("duplicate slug");
    const own = await call("/api/admin/subsections", "POST", {
      chapterId: chapter.id, title: "Another", content: "Text", slug: "custom", order: 7, photo: "/uploads/a.webp", photoAlt: "A lake",
    });
    expect(own.body).toMatchObject({ slug: "custom", order: 7, photo: "/uploads/a.webp", photoAlt: "A lake" });
    expect((await call("/api/admin/subsections", "POST", { chapterId: 999999, title: "X", content: "Y" })).status).toBe(404);
    const badPhoto = await call("/api/admin/subsections", "POST", { chapterId: chapter.id, title: "X", content: "Y", photo: "javascript:alert(1)" });
    expect(badPhoto.status).toBe(400);
    expect(badPhoto.body.error.message).toMatch(/^photo:/);
  });

  it("updates, moves, deletes and restores a subsection; 409 while its chapter is deleted or after 24 hours", async () => {
    const t0 = new Date("2026-11-21T08:00:00Z");
    useAdminClock(() => t0);
    const first = await createChapter(database.db);
    const second = await createChapter(database.db);
    const sub = await createSubsection(database.db, first.id, { slug: "keep-me" });
    const updated = await call(`/api/admin/subsections/${sub.id}`, "PUT", { chapterId: second.id, title: "Moved", content: "New", photo: null, order: 3 });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ chapterId: second.id, title: "Moved", slug: "keep-me", order: 3 });
    await createSubsection(database.db, first.id, { slug: "clash" });
    expect((await call(`/api/admin/subsections/${sub.id}`, "PUT", { chapterId: first.id, title: "Back", content: "x", slug: "clash", order: 0 })).status).toBe(409);

    expect((await call(`/api/admin/subsections/${sub.id}`, "DELETE")).body).toEqual({ ok: true });
    expect((await call(`/api/admin/subsections/${sub.id}`, "DELETE")).status).toBe(404);
    const restored = await call(`/api/admin/subsections/${sub.id}/restore`, "PUT");
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ id: sub.id, chapterId: second.id });

    await call(`/api/admin/subsections/${sub.id}`, "DELETE");
    useAdminClock(() => new Date(t0.getTime() + 1000)); // the chapter goes later: its restore leaves this one deleted
    await call(`/api/admin/chapters/${second.id}`, "DELETE");
    const orphan = await call(`/api/admin/subsections/${sub.id}/restore`, "PUT");
    expect(orphan.status).toBe(409);
    expect(orphan.body.error.message).toContain("Restore the chapter first");
    await call(`/api/admin/chapters/${second.id}/restore`, "PUT");
    useAdminClock(() => new Date(t0.getTime() + 25 * HOUR));
    const late = await call(`/api/admin/subsections/${sub.id}/restore`, "PUT");
    expect(late.status).toBe(409);
    expect(late.body.error.message).toContain("more than 24 hours ago");
  });

  it("reorders a chapter's subsections (0..n-1) and refuses a wrong id set", async () => {
    const chapter = await createChapter(database.db);
    const other = await createChapter(database.db);
    const [x, y, z] = [await createSubsection(database.db, chapter.id), await createSubsection(database.db, chapter.id), await createSubsection(database.db, chapter.id)];
    const stranger = await createSubsection(database.db, other.id);
    const path = "/api/admin/subsections/reorder";
    expect((await call(path, "PUT", { chapterId: chapter.id, subsectionIds: [x!.id, y!.id] })).body.error.message).toContain("missing");
    expect((await call(path, "PUT", { chapterId: chapter.id, subsectionIds: [x!.id, y!.id, z!.id, stranger.id] })).status).toBe(400);
    expect((await call(path, "PUT", { chapterId: chapter.id, subsectionIds: "1,2" })).status).toBe(400);
    expect((await call(path, "PUT", { chapterId: chapter.id, subsectionIds: [z!.id, x!.id, y!.id] })).body).toEqual({ ok: true });
    const rows = await database.db.select().from(subsections);
    expect([z, x, y].map((s) => rows.find((r) => r.id === s!.id)!.order)).toEqual([0, 1, 2]);
  });
});
