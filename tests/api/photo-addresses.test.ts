/**
 * A photo address that climbs out of its folder once decoded (issue 21: 5), such as
 * `/uploads/x%2F..%2F..%2Fevil`, is refused wherever a photo address is saved: a new subsection,
 * an edit (published or as a draft), and a kept version or pending draft written back (restoring a
 * revision, publishing a draft) that holds one from before the rule. Chapters have no photo.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "../../src/server/db/orm.ts";
import { subsections } from "../../src/server/db/schema.ts";
import { apiClient, type Api } from "../support/api.ts";
import { adminLogin, asAdmin } from "../support/admin.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";
import { createChapter, createSubsection } from "../support/factories.ts";

type Json = Record<string, unknown>;

const BAD_ADDRESSES = [
  "/uploads/x%2F..%2F..%2Fevil",
  "/uploads/x%2f..%2f..%2fevil",
  "/uploads/..%2F..%2Fetc%2Fpasswd",
  "/uploads/%2E%2E/evil.jpg",
  "/images/../../evil.jpg",
  "/uploads/x%5C..%5Cevil",
  "/uploads/x\\..\\evil",
  "/uploads/x%00.jpg",
  "/uploads/%zz.jpg",
];
const MESSAGE = /^photo: Photo address must not contain \. or \.\. parts, or an encoded \/ or \\/;

describe.each(databaseTargets().filter((t) => t.name !== "neon"))("photo addresses on $name", (target) => {
  let database: TestDatabase;
  let api: Api;
  let cookie: string;

  beforeAll(async () => {
    database = await target.open();
    api = await apiClient(database);
    ({ cookie } = await adminLogin(api, database.db));
  });
  afterAll(() => database?.dispose());

  const call = async (path: string, method = "GET", body?: unknown) => {
    const response = await api(path, asAdmin(cookie, method, body));
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as Json & { error: { message: string } } };
  };

  it("refuses an encoded .. or slash in a subsection's photo on create, edit and draft save, with a clear 400", async () => {
    const chapter = await createChapter(database.db);
    const part = await createSubsection(database.db, chapter.id, { photo: "/uploads/0123456789abcdef0123456789abcdef.jpg" });
    for (const photo of BAD_ADDRESSES) {
      const body = { chapterId: chapter.id, title: "A photo", content: "Text", photo, photoAlt: "A lake" };
      const created = await call("/api/admin/subsections", "POST", body);
      expect(created.status, photo).toBe(400);
      expect(created.body.error.message, photo).toMatch(MESSAGE);
      for (const draft of [false, true]) {
        const edited = await call(`/api/admin/subsections/${part.id}`, "PUT", { ...body, draft });
        expect(edited.status, `${photo} draft ${draft}`).toBe(400);
        expect(edited.body.error.message).toMatch(MESSAGE);
      }
    }
    const [row] = await database.db.select().from(subsections).where(eq(subsections.id, part.id));
    expect(row).toMatchObject({ photo: "/uploads/0123456789abcdef0123456789abcdef.jpg", draft: null });
    // Plain addresses still pass, an encoded space or ünïcode among them.
    for (const photo of ["/uploads/0123456789abcdef0123456789abcdef_1200x800.jpg", "/images/quiet%20room.jpg", "/images/caf%C3%A9.jpg", "/images/a.jpg?v=2"]) {
      const ok = await call(`/api/admin/subsections/${part.id}`, "PUT", { chapterId: chapter.id, title: "A photo", content: "Text", photo, photoAlt: "A lake" });
      expect(ok.status, photo).toBe(200);
      expect(ok.body.photo).toBe(photo);
    }
  });

  it("refuses to write back such an address kept from before the rule: a pending draft published, a revision restored", async () => {
    const chapter = await createChapter(database.db);
    const bad = BAD_ADDRESSES[0]!;
    // A pending draft saved before the rule, holding the address.
    const drafted = await createSubsection(database.db, chapter.id, { slug: "drafted" });
    const draft = { chapterId: chapter.id, title: "Drafted", content: "Draft text", photo: bad, photoAlt: "Evil" };
    await database.db.update(subsections).set({ draft, draftSavedAt: new Date() }).where(eq(subsections.id, drafted.id));
    const published = await call(`/api/admin/subsections/${drafted.id}/publish`, "POST");
    expect(published.status).toBe(400);
    expect(published.body.error.message).toMatch(MESSAGE);
    const [afterPublish] = await database.db.select().from(subsections).where(eq(subsections.id, drafted.id));
    expect(afterPublish!.photo).toBeNull();

    // A subsection saved with it before the rule, then edited: its kept version holds it.
    const old = await createSubsection(database.db, chapter.id, { slug: "old", photo: bad, photoAlt: "Evil" });
    const edited = await call(`/api/admin/subsections/${old.id}`, "PUT", { chapterId: chapter.id, title: "Fixed", content: "Text", photo: "" });
    expect(edited.status).toBe(200);
    const [revision] = (await call(`/api/admin/subsections/${old.id}/revisions`)).body as unknown as Json[];
    const restored = await call(`/api/admin/revisions/${revision!.id}/restore`, "POST");
    expect(restored.status).toBe(400);
    expect(restored.body.error.message).toMatch(MESSAGE);
    const [afterRestore] = await database.db.select().from(subsections).where(eq(subsections.id, old.id));
    expect(afterRestore!.photo).toBeNull();
  });
});
