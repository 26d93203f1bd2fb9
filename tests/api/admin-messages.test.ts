/**
 * What the admin API says when it refuses or stores a chapter or subsection (issue 22: 2): titles
 * are stored trimmed, a reserved slug is refused in one sentence naming the address, and a taken
 * slug is a 409 `slug_taken` in one sentence naming the item that holds it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, type Api } from "../support/api.ts";
import { adminLogin, asAdmin } from "../support/admin.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";
import { RESERVED_SLUGS } from "../../src/lib/slug.ts";

type Json = Record<string, unknown>;
interface Answer {
  status: number;
  body: Json & { error: { code: string; message: string } };
}

/** One sentence: no status code, no field named twice, no second sentence after a full stop. */
function expectOneSentence(message: string): void {
  expect(message).not.toMatch(/\b\d{3}: /);
  expect(message).not.toMatch(/^\w+: \w+:/i);
  expect(message).not.toMatch(/\.\s+\S/);
}

describe.each(databaseTargets())("admin messages on $name", (target) => {
  let database: TestDatabase;
  let api: Api;
  let cookie: string;

  beforeAll(async () => {
    database = await target.open();
    api = await apiClient(database);
    ({ cookie } = await adminLogin(api, database.db));
  });
  afterAll(() => database?.dispose());

  const call = async (path: string, method = "GET", body?: unknown): Promise<Answer> => {
    const response = await api(path, asAdmin(cookie, method, body));
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as Answer["body"] };
  };
  let sequence = 0;
  const chapterBody = (values: Json = {}) => ({
    slug: `m-${++sequence}-${Math.random().toString(36).slice(2, 8)}`,
    title: "A chapter",
    content: "## Heading\n\nBody.",
    readingTime: 5,
    order: 0,
    level: "Operator",
    ...values,
  });

  it("stores chapter and subsection titles trimmed, on create, update and as a draft", async () => {
    const created = await call("/api/admin/chapters", "POST", chapterBody({ title: "  \tSignal and Noise  " }));
    expect(created.status).toBe(201);
    expect(created.body.title).toBe("Signal and Noise");
    const id = created.body.id as number;
    const updated = await call(`/api/admin/chapters/${id}`, "PUT", chapterBody({ slug: created.body.slug, title: "  Renamed " }));
    expect(updated.body.title).toBe("Renamed");
    const drafted = await call(`/api/admin/chapters/${id}`, "PUT", chapterBody({ slug: created.body.slug, title: " Draft title  ", draft: true }));
    expect(drafted.status).toBe(200);
    expect((drafted.body.draft as Json).title).toBe("Draft title");
    const listed = (await call("/api/admin/chapters")).body as unknown as Json[];
    expect(listed.find((c) => c.id === id)!.title).toBe("Renamed");

    const sub = await call("/api/admin/subsections", "POST", { chapterId: id, title: "  First Part  ", content: "Words." });
    expect(sub.status).toBe(201);
    expect(sub.body).toMatchObject({ title: "First Part", slug: "first-part" });
    const subUpdated = await call(`/api/admin/subsections/${sub.body.id}`, "PUT", { chapterId: id, title: " Second Part ", content: "Words.", order: 0 });
    expect(subUpdated.body.title).toBe("Second Part");

    // A title of spaces only is no title.
    const blank = await call("/api/admin/chapters", "POST", chapterBody({ title: "   " }));
    expect(blank.status).toBe(400);
    expect(blank.body.error.message).toBe("title: Title is required");
  });

  it("refuses every reserved slug (the built site's folders too) in one sentence naming the address", async () => {
    for (const slug of ["pagefind", "images", "uploads", "api", "admin"]) {
      const refused = await call("/api/admin/chapters", "POST", chapterBody({ slug }));
      expect(refused.status, slug).toBe(400);
      expect(refused.body.error.message).toBe(`slug: The site itself uses the address /${slug}; choose another slug`);
      expectOneSentence(refused.body.error.message);
    }
    expect(RESERVED_SLUGS).toEqual(expect.arrayContaining(["pagefind", "images"]));
    // ... on update too.
    const created = await call("/api/admin/chapters", "POST", chapterBody());
    const moved = await call(`/api/admin/chapters/${created.body.id}`, "PUT", chapterBody({ slug: "pagefind" }));
    expect(moved.status).toBe(400);
    expect(moved.body.error.message).toContain("/pagefind");
    // A slug with the wrong characters says what is allowed, once.
    const bad = await call("/api/admin/chapters", "POST", chapterBody({ slug: "Bad Slug" }));
    expect(bad.body.error.message).toBe("slug: Use only lowercase letters, digits and single hyphens, like signal-and-noise");
  });

  it("answers a taken chapter slug with a 409 slug_taken in one sentence naming the chapter that has it", async () => {
    const holder = await call("/api/admin/chapters", "POST", chapterBody({ slug: "taken-here", title: "The Holder" }));
    expect(holder.status).toBe(201);
    const clash = await call("/api/admin/chapters", "POST", chapterBody({ slug: "taken-here" }));
    expect(clash.status).toBe(409);
    expect(clash.body.error).toEqual({ code: "slug_taken", message: 'The chapter "The Holder" already has the slug "taken-here"; choose another slug' });
    expectOneSentence(clash.body.error.message);

    const other = await call("/api/admin/chapters", "POST", chapterBody());
    const onUpdate = await call(`/api/admin/chapters/${other.body.id}`, "PUT", chapterBody({ slug: "taken-here" }));
    expect(onUpdate.status).toBe(409);
    expect(onUpdate.body.error.code).toBe("slug_taken");
    const asDraft = await call(`/api/admin/chapters/${other.body.id}`, "PUT", chapterBody({ slug: "taken-here", draft: true }));
    expect(asDraft.status).toBe(409);
    expect(asDraft.body.error.message).toContain('"The Holder"');

    // Restoring a chapter whose slug another chapter took meanwhile says how to get it back.
    const gone = await call("/api/admin/chapters", "POST", chapterBody({ slug: "came-back" }));
    await call(`/api/admin/chapters/${gone.body.id}`, "DELETE");
    await call("/api/admin/chapters", "POST", chapterBody({ slug: "came-back", title: "The Newcomer" }));
    const restore = await call(`/api/admin/chapters/${gone.body.id}/restore`, "PUT");
    expect(restore.status).toBe(409);
    expect(restore.body.error.message).toBe('The chapter "The Newcomer" now has the slug "came-back"; give it another slug, then restore this one');
    expectOneSentence(restore.body.error.message);
  });

  it("answers a taken subsection slug with a 409 in one sentence, keeping the words 'duplicate slug'", async () => {
    const chapter = await call("/api/admin/chapters", "POST", chapterBody());
    const chapterId = chapter.body.id as number;
    await call("/api/admin/subsections", "POST", { chapterId, title: "Second Part", content: "Words." });
    const clash = await call("/api/admin/subsections", "POST", { chapterId, title: "Second Part", content: "Again." });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toEqual({
      code: "slug_taken",
      message: 'The subsection "Second Part" of this chapter already has the slug "second-part" (a duplicate slug); choose another slug',
    });
    expectOneSentence(clash.body.error.message);
    const other = await call("/api/admin/subsections", "POST", { chapterId, title: "Third Part", content: "Words." });
    const onUpdate = await call(`/api/admin/subsections/${other.body.id}`, "PUT", { chapterId, title: "Third Part", content: "Words.", order: 1, slug: "second-part" });
    expect(onUpdate.status).toBe(409);
    expect(onUpdate.body.error.message).toContain("duplicate slug");
  });

  it("names a scheduled save's field once", async () => {
    const refused = await call("/api/admin/chapters", "POST", chapterBody({ publishAt: new Date(Date.now() + 86_400_000).toISOString() }));
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe("publishAt: only a draft can be scheduled");
  });
});
