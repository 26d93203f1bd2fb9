/**
 * Issue 14, items 1-3 through the API: every save keeps the version it replaces (who, when, every
 * field), a restored revision publishes as an edit does, revisions survive a delete and a restore,
 * pruning keeps the last 50 and 90 days; drafts reach no reader (API, chapter pages, the content
 * snapshot dist/ and the sitemap are built from); a pending draft leaves the live text live until
 * published, by hand or by the scheduled job (once, even with two runs at once); the tier preview
 * is the admin's alone, never cached, noindex, and publishes nothing.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { useAdminClock } from "../../src/server/admin/clock.ts";
import { takeSnapshot } from "../../src/server/build/snapshot.ts";
import { openDatabase } from "../../src/server/db/client.ts";
import { eq } from "../../src/server/db/orm.ts";
import { chapters, contentRevisions } from "../../src/server/db/schema.ts";
import { CdnCache } from "../../src/server/host/cdn-cache.ts";
import { runRetention } from "../../src/server/maintenance/retention.ts";
import { runScheduledPublishing } from "../../src/server/maintenance/scheduled-publishing.ts";
import { previewPage } from "../../src/server/pages/preview-page.ts";
import { PAGE_NOTICE } from "../../src/lib/page-signals.ts";
import { useSitePages } from "../../src/server/pages/site-pages.ts";
import { readPublishView } from "../../src/server/publish/state.ts";
import { localPhotoStore } from "../../src/server/uploads/photo-store.ts";
import { adminLogin, asAdmin } from "../support/admin.ts";
import { apiClient, type Api } from "../support/api.ts";
import { loginAs } from "../support/auth.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";
import { minimalShell } from "../support/chapter-shell.ts";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const DAY = 24 * 3600 * 1000;
let unique = 0;
const slug = (stem: string) => `${stem}-${++unique}-${Math.random().toString(36).slice(2, 6)}`;

const SHELL = minimalShell();
/** The built notice page as the site's build makes it, cut down: its tokens in the site's frame. */
const NOTICE =
  `<!doctype html><html lang="en"><head><link rel="stylesheet" href="/_astro/site.css"><title>${PAGE_NOTICE.title} · The System</title></head>` +
  `<body><h1>${PAGE_NOTICE.title}</h1><p>${PAGE_NOTICE.text}</p><a href="${PAGE_NOTICE.href}">${PAGE_NOTICE.link}</a></body></html>`;

describe.each(databaseTargets())("revisions, drafts and previews on $name", (target) => {
  let database: TestDatabase;
  let api: Api;
  let cookie: string;
  let email: string;

  beforeAll(async () => {
    database = await target.open();
    api = await apiClient(database, undefined, { cache: new CdnCache() });
    useSitePages((pathname) => (pathname === "/chapter-shell" ? SHELL : pathname === "/page-notice" ? NOTICE : null));
    ({ cookie, email } = await adminLogin(api, database.db));
  });
  afterAll(async () => {
    useSitePages(undefined);
    await database?.dispose();
  });
  afterEach(() => useAdminClock());

  const call = async (path: string, method = "GET", body?: unknown) => {
    const response = await api(path, asAdmin(cookie, method, body));
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as Json };
  };
  const chapterBody = (values: Json = {}) => ({
    slug: slug("c"),
    title: "A chapter",
    content: "The first words.",
    readingTime: 5,
    order: 0,
    level: "Operator",
    ...values,
  });
  const newChapter = async (values: Json = {}) => {
    const created = await call("/api/admin/chapters", "POST", chapterBody(values));
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body;
  };
  /** What any reader gets: the list, the chapter, its subsections, its page. */
  const publicView = async (chapter: Json) => ({
    list: (await (await api("/api/chapters")).json()) as Json[],
    chapter: await api(`/api/chapters/${chapter.slug}`),
    subsections: await api(`/api/chapters/${chapter.id}/subsections`),
    page: await api(`/${chapter.slug}`),
  });

  describe("revisions", () => {
    it("keeps every version a save replaces, with every field, who saved it and when, newest first", async () => {
      const t0 = new Date("2027-01-10T09:00:00Z");
      useAdminClock(() => t0);
      const chapter = await newChapter({ title: "Version one", content: "One.", readingTime: 3, order: 4 });
      expect((await call(`/api/admin/chapters/${chapter.id}/revisions`)).body).toEqual([]);
      const t1 = new Date(t0.getTime() + 3600_000);
      useAdminClock(() => t1);
      await call(`/api/admin/chapters/${chapter.id}`, "PUT", chapterBody({ slug: chapter.slug, title: "Version two", content: "Two.", level: "Architect" }));
      useAdminClock(() => new Date(t1.getTime() + 60_000));
      await call(`/api/admin/chapters/${chapter.id}`, "PUT", chapterBody({ slug: chapter.slug, title: "Version three", content: "Three." }));

      const history = await call(`/api/admin/chapters/${chapter.id}/revisions`);
      expect(history.status).toBe(200);
      expect(history.body).toHaveLength(2);
      const [newest, oldest] = history.body as Json[];
      expect(oldest).toMatchObject({
        kind: "chapter",
        itemId: chapter.id,
        fields: { slug: chapter.slug, title: "Version one", content: "One.", readingTime: 3, order: 4, level: "Operator", status: "published" },
        savedAt: t0.toISOString(),
        savedBy: email,
        replacedAt: t1.toISOString(),
        replacedBy: email,
      });
      expect(newest!.fields).toMatchObject({ title: "Version two", content: "Two.", level: "Architect" });
    });

    it("keeps a subsection's versions too, photo and all", async () => {
      const chapter = await newChapter();
      const part = (await call("/api/admin/subsections", "POST", { chapterId: chapter.id, title: "Part", content: "Old part.", photo: "https://example.com/a.jpg", photoAlt: "A view" })).body;
      await call(`/api/admin/subsections/${part.id}`, "PUT", { chapterId: chapter.id, title: "Part", content: "New part.", photo: null });
      const [revision] = (await call(`/api/admin/subsections/${part.id}/revisions`)).body as Json[];
      expect(revision!.fields).toEqual({ chapterId: chapter.id, slug: part.slug, title: "Part", content: "Old part.", photo: "https://example.com/a.jpg", photoAlt: "A view", order: 0, status: "published" });

      const restored = await call(`/api/admin/revisions/${revision!.id}/restore`, "POST");
      expect(restored.status).toBe(200);
      expect(restored.body).toMatchObject({ kind: "subsection", item: { id: part.id, content: "Old part.", photo: "https://example.com/a.jpg" } });
      const live = (await (await api(`/api/chapters/${chapter.id}/subsections?fresh=1`)).json()) as Json[];
      expect(live[0]).toMatchObject({ content: "Old part.", photo: "https://example.com/a.jpg" });
    });

    it("restores a version as a new save that publishes like an edit: the cached answer is purged and the replaced version kept", async () => {
      const chapter = await newChapter({ content: "The original words." });
      await call(`/api/admin/chapters/${chapter.id}`, "PUT", chapterBody({ slug: chapter.slug, content: "A regretted edit." }));
      // Readers' answer is cached at the CDN's stand-in.
      expect(((await (await api(`/api/chapters/${chapter.slug}`)).json()) as Json).content).toBe("A regretted edit.");
      expect((await api(`/api/chapters/${chapter.slug}`)).headers.get("cache-status")).toContain("hit");
      const [original] = (await call(`/api/admin/chapters/${chapter.id}/revisions`)).body as Json[];

      const restored = await call(`/api/admin/revisions/${original!.id}/restore`, "POST");
      expect(restored.status).toBe(200);
      expect(restored.body.item).toMatchObject({ id: chapter.id, content: "The original words.", updatedBy: email });
      const reader = await api(`/api/chapters/${chapter.slug}`);
      expect(reader.headers.get("cache-status") ?? "").not.toContain("hit");
      expect(((await reader.json()) as Json).content).toBe("The original words.");
      expect((await readPublishView(database.db)).state).not.toBe("failed");
      const history = (await call(`/api/admin/chapters/${chapter.id}/revisions`)).body as Json[];
      expect(history.map((r) => r.fields.content)).toEqual(["A regretted edit.", "The original words."]);
    });

    it("survives a delete and a restore of its item; restoring into a deleted item is refused", async () => {
      const chapter = await newChapter({ content: "Before." });
      await call(`/api/admin/chapters/${chapter.id}`, "PUT", chapterBody({ slug: chapter.slug, content: "After." }));
      const [revision] = (await call(`/api/admin/chapters/${chapter.id}/revisions`)).body as Json[];
      expect((await call(`/api/admin/chapters/${chapter.id}`, "DELETE")).status).toBe(200);
      expect((await call(`/api/admin/chapters/${chapter.id}/revisions`)).body).toHaveLength(1);
      const refused = await call(`/api/admin/revisions/${revision!.id}/restore`, "POST");
      expect(refused.status).toBe(404);
      expect(refused.body.error.message).toMatch(/deleted/);
      expect((await call(`/api/admin/chapters/${chapter.id}/restore`, "PUT")).status).toBe(200);
      const after = (await call(`/api/admin/chapters/${chapter.id}/revisions`)).body as Json[];
      expect(after.map((r) => r.id)).toEqual([revision!.id]);
      expect((await call(`/api/admin/revisions/${revision!.id}/restore`, "POST")).body.item.content).toBe("Before.");
    });

    it("brings back the words and keeps the current address and place, across a slug change and a move (issue 21: 10)", async () => {
      const chapter = await newChapter({ title: "Old title", content: "Old words.", order: 3, level: "Operator" });
      const part = (await call("/api/admin/subsections", "POST", { chapterId: chapter.id, title: "Old part", content: "Old part words.", slug: slug("p"), order: 0 })).body;
      const moved = slug("moved");
      await call(`/api/admin/chapters/${chapter.id}`, "PUT", chapterBody({ slug: moved, title: "New title", content: "New words.", order: 7, level: "Architect" }));
      const other = await newChapter();
      const newPart = slug("p");
      await call(`/api/admin/subsections/${part.id}`, "PUT", { chapterId: other.id, title: "New part", content: "New part words.", slug: newPart, order: 4 });
      const [revision] = (await call(`/api/admin/chapters/${chapter.id}/revisions`)).body as Json[];
      const restored = await call(`/api/admin/revisions/${revision!.id}/restore`, "POST");
      expect(restored.status).toBe(200);
      expect(restored.body.item).toMatchObject({ slug: moved, order: 7, title: "Old title", content: "Old words.", level: "Operator" });
      // The current address answers with the old words; the old address stays free.
      expect(((await (await api(`/api/chapters/${moved}`)).json()) as Json).content).toBe("Old words.");
      expect((await api(`/api/chapters/${chapter.slug}`)).status).toBe(404);
      const [partRevision] = (await call(`/api/admin/subsections/${part.id}/revisions`)).body as Json[];
      const partRestored = await call(`/api/admin/revisions/${partRevision!.id}/restore`, "POST");
      expect(partRestored.status).toBe(200);
      expect(partRestored.body.item).toMatchObject({ chapterId: other.id, slug: newPart, order: 4, title: "Old part", content: "Old part words." });
    });

    it("refuses unknown or bad ids, and callers who are not the admin", async () => {
      const chapter = await newChapter();
      await call(`/api/admin/chapters/${chapter.id}`, "PUT", chapterBody({ slug: chapter.slug, content: "Changed." }));
      const [revision] = (await call(`/api/admin/chapters/${chapter.id}/revisions`)).body as Json[];
      expect((await call("/api/admin/revisions/999999/restore", "POST")).status).toBe(404);
      expect((await call("/api/admin/revisions/abc/restore", "POST")).status).toBe(400);
      expect((await call("/api/admin/pages/1/revisions")).status).toBe(404);
      expect((await api(`/api/admin/chapters/${chapter.id}/revisions`)).status).toBe(401);
      expect((await api(`/api/admin/revisions/${revision!.id}/restore`, { method: "POST" })).status).toBe(401);
      const reader = await loginAs(api, database.db, "Mastermind");
      expect((await api(`/api/admin/chapters/${chapter.id}/revisions`, { headers: { cookie: reader.cookie } })).status).toBe(403);
    });

    it("prunes what is both older than 90 days and not among an item's last 50, in the retention job and at a save", async () => {
      const now = new Date("2027-06-01T00:00:00Z");
      const [old, recent, few, saved] = [await newChapter(), await newChapter(), await newChapter(), await newChapter()];
      const rows = (chapterId: number, n: number, daysAgo: number) =>
        Array.from({ length: n }, (_, i) => ({
          chapterId,
          fields: { title: `v${i}` },
          savedAt: new Date(now.getTime() - (daysAgo + 1) * DAY),
          replacedAt: new Date(now.getTime() - daysAgo * DAY + i * 1000),
        }));
      await database.db.insert(contentRevisions).values([...rows(old.id, 60, 100), ...rows(recent.id, 60, 10), ...rows(few.id, 3, 400), ...rows(saved.id, 55, 95)]);
      const counts = async (id: number) => (await database.db.select().from(contentRevisions).where(eq(contentRevisions.chapterId, id))).length;

      // A save prunes its own item: 55 old ones and the new one make 50.
      useAdminClock(() => now);
      expect(await counts(saved.id)).toBe(55);
      await call(`/api/admin/chapters/${saved.id}`, "PUT", chapterBody({ slug: saved.slug }));
      expect(await counts(saved.id)).toBe(50);

      const report = await runRetention(database.db, { now, policy: { unfinishedScanDays: 30, deletedContentDays: 7, unusedPhotoDays: 7, readingDays: 90, readingTotalsDays: 730 }, store: localPhotoStore(`/tmp/sb-rev-${process.pid}`) });
      expect(report.failed).toEqual([]);
      // Retention ran two years on: the admin's session expired with the rest.
      ({ cookie, email } = await adminLogin(api, database.db));
      expect(await counts(old.id)).toBe(50);
      expect(await counts(recent.id)).toBe(60);
      expect(await counts(few.id)).toBe(3);
      // The 50 kept are the newest.
      const kept = await database.db.select({ title: contentRevisions.fields }).from(contentRevisions).where(eq(contentRevisions.chapterId, old.id));
      expect(kept.map((r) => (r.title as Json).title)).not.toContain("v9");
      expect(kept.map((r) => (r.title as Json).title)).toContain("v10");

    });
  });

  describe("drafts", () => {
    it("keeps a draft chapter and its subsections from every reader answer, page, list and the build's snapshot", async () => {
      const published = await newChapter({ content: "Open words." });
      const draft = await newChapter({ draft: true, content: "Secret draft words.", level: "Operator" });
      expect(draft.status).toBe("draft");
      const draftPart = await call("/api/admin/subsections", "POST", { chapterId: published.id, title: "Unready", content: "Draft part words.", draft: true });
      expect(draftPart.status).toBe(201);
      await call("/api/admin/subsections", "POST", { chapterId: draft.id, title: "Inside", content: "Words inside a draft." });

      const view = await publicView(draft);
      expect(view.list.map((c) => c.slug)).not.toContain(draft.slug);
      expect(view.chapter.status).toBe(404);
      expect(view.subsections.status).toBe(404);
      expect(view.page.status).toBe(404);
      const open = await publicView(published);
      expect(open.list.map((c) => c.slug)).toContain(published.slug);
      const texts = [JSON.stringify(open.list), await open.chapter.text(), await open.subsections.text(), await open.page.text()].join("\n");
      expect(texts).toContain("Open words.");
      for (const secret of ["Secret draft words.", "Draft part words.", "Words inside a draft.", draft.slug]) expect(texts).not.toContain(secret);
      const mastermind = await loginAs(api, database.db, "Mastermind");
      expect((await api(`/api/chapters/${draft.slug}`, { headers: { cookie: mastermind.cookie } })).status).toBe(404);
      expect((await api(`/${draft.slug}`, { headers: { cookie: mastermind.cookie } })).status).toBe(404);
      // dist/ and the sitemap are built from this snapshot.
      expect((await takeSnapshot(database.db)).chapters.map((c) => c.slug)).not.toContain(draft.slug);

      // The admin sees both, marked as drafts.
      const admin = (await call("/api/admin/chapters")).body as Json[];
      expect(admin.find((c) => c.id === draft.id)).toMatchObject({ status: "draft", content: "Secret draft words." });
      const parts = (await call(`/api/admin/chapters/${published.id}/subsections`)).body as Json[];
      expect(parts.find((p) => p.title === "Unready")).toMatchObject({ status: "draft" });

      // Published: it reaches readers, and the replaced (draft) version is kept.
      const out = await call(`/api/admin/chapters/${draft.id}/publish`, "POST");
      expect(out.status).toBe(200);
      expect(out.body.status).toBe("published");
      expect((await api(`/api/chapters/${draft.slug}`)).status).toBe(200);
      expect((await takeSnapshot(database.db)).chapters.map((c) => c.slug)).toContain(draft.slug);
      expect(((await call(`/api/admin/chapters/${draft.id}/revisions`)).body as Json[])[0]!.fields.status).toBe("draft");
      expect((await call(`/api/admin/chapters/${draft.id}/publish`, "POST")).status).toBe(409);
      await call(`/api/admin/subsections/${draftPart.body.id}/publish`, "POST");
      expect(await (await api(`/api/chapters/${published.id}/subsections`)).text()).toContain("Draft part words.");
    });

    it("keeps an edit of a published chapter as a pending draft while the live text stays, until published or discarded", async () => {
      const chapter = await newChapter({ content: "Live words." });
      expect(((await (await api(`/api/chapters/${chapter.slug}`)).json()) as Json).content).toBe("Live words.");
      const saved = await call(`/api/admin/chapters/${chapter.id}`, "PUT", chapterBody({ slug: chapter.slug, title: "Retitled", content: "Pending words.", draft: true }));
      expect(saved.status).toBe(200);
      expect(saved.body).toMatchObject({ status: "published", content: "Live words.", draft: { title: "Retitled", content: "Pending words." }, draftSavedBy: email });
      const reader = await (await api(`/api/chapters/${chapter.slug}?fresh=1`)).text();
      expect(reader).toContain("Live words.");
      expect(reader).not.toContain("Pending words.");
      expect(await (await api(`/${chapter.slug}`)).text()).not.toContain("Pending words.");
      expect((await call(`/api/admin/chapters/${chapter.id}/revisions`)).body).toEqual([]);

      const published = await call(`/api/admin/chapters/${chapter.id}/publish`, "POST");
      expect(published.body).toMatchObject({ title: "Retitled", content: "Pending words.", draft: null });
      expect(((await (await api(`/api/chapters/${chapter.slug}`)).json()) as Json).content).toBe("Pending words.");
      expect(((await call(`/api/admin/chapters/${chapter.id}/revisions`)).body as Json[])[0]!.fields.content).toBe("Live words.");

      await call(`/api/admin/chapters/${chapter.id}`, "PUT", chapterBody({ slug: chapter.slug, content: "Thrown away.", draft: true }));
      const discarded = await call(`/api/admin/chapters/${chapter.id}/draft`, "DELETE");
      expect(discarded.body).toMatchObject({ draft: null, content: "Pending words." });
      expect((await call(`/api/admin/chapters/${chapter.id}/draft`, "DELETE")).status).toBe(404);
    });

    it("validates the save options and the schedule", async () => {
      const chapter = await newChapter();
      const future = new Date(Date.now() + DAY).toISOString();
      const cases: [Json, string][] = [
        [{ draft: "yes" }, "draft"],
        [{ draft: true, publishAt: "tomorrow" }, "publishAt"],
        [{ publishAt: future }, "publishAt: only a draft"],
        [{ draft: true, publishAt: new Date(Date.now() - DAY).toISOString() }, "publishAt: choose a time in the future"],
      ];
      for (const [values, message] of cases) {
        const response = await call(`/api/admin/chapters/${chapter.id}`, "PUT", chapterBody({ slug: chapter.slug, ...values }));
        expect(response.status, JSON.stringify(values)).toBe(400);
        expect(response.body.error.message).toContain(message);
      }
      expect((await call(`/api/admin/chapters/${chapter.id}/schedule`, "PUT", { publishAt: future })).status).toBe(409);
      expect((await call(`/api/admin/chapters/${chapter.id}/schedule`, "PUT", { publishAt: "soon" })).status).toBe(400);
    });

    it("publishes a scheduled draft when its time comes, through the scheduled job, once", async () => {
      const t0 = new Date("2027-02-01T08:00:00Z");
      useAdminClock(() => t0);
      const at = new Date(t0.getTime() + 2 * 3600_000);
      const fresh = await newChapter({ draft: true, publishAt: at.toISOString(), content: "Goes out at ten." });
      expect(fresh.publishAt).toBe(at.toISOString());
      const live = await newChapter({ content: "Old text." });
      const pending = await call(`/api/admin/chapters/${live.id}`, "PUT", chapterBody({ slug: live.slug, content: "New text at ten.", draft: true, publishAt: at.toISOString() }));
      expect(pending.body.publishAt).toBe(at.toISOString());
      const later = await newChapter({ draft: true });
      expect((await call(`/api/admin/chapters/${later.id}/schedule`, "PUT", { publishAt: new Date(t0.getTime() + 5 * DAY).toISOString() })).status).toBe(200);

      expect((await runScheduledPublishing(database.db, new Date(at.getTime() - 1000))).published).toEqual([]);
      expect((await api(`/api/chapters/${fresh.slug}`)).status).toBe(404);
      const run = await runScheduledPublishing(database.db, at);
      expect(run).toEqual({ published: [{ kind: "chapter", id: fresh.id }, { kind: "chapter", id: live.id }], failed: [] });
      expect(((await (await api(`/api/chapters/${fresh.slug}`)).json()) as Json).content).toBe("Goes out at ten.");
      expect(((await (await api(`/api/chapters/${live.slug}`)).json()) as Json).content).toBe("New text at ten.");
      expect((await runScheduledPublishing(database.db, new Date(at.getTime() + 60_000))).published).toEqual([]);
      expect((await api(`/api/chapters/${later.slug}`)).status).toBe(404);
      const [row] = await database.db.select().from(chapters).where(eq(chapters.id, live.id));
      expect(row).toMatchObject({ publishAt: null, draft: null, status: "published" });
    });

    it.runIf(target.name !== "pglite")("publishes a due draft once when four job runs start at once on two connections", async () => {
      const other = await openDatabase({ driver: target.name, url: database.url! });
      try {
        const due = new Date(Date.now() - 1000);
        const items = [];
        for (let i = 0; i < 8; i++) {
          const chapter = await newChapter({ content: `Before ${i}.` });
          await call(`/api/admin/chapters/${chapter.id}`, "PUT", chapterBody({ slug: chapter.slug, content: `After ${i}.`, draft: true }));
          await database.db.update(chapters).set({ publishAt: due }).where(eq(chapters.id, chapter.id));
          items.push(chapter.id as number);
        }
        const runs = await Promise.all([database.db, other.db, database.db, other.db].map((db) => runScheduledPublishing(db)));
        const published = runs.flatMap((run) => run.published.map((p) => p.id));
        expect(runs.flatMap((run) => run.failed)).toEqual([]);
        expect(published.sort()).toEqual([...items].sort());
        for (const id of items) expect((await call(`/api/admin/chapters/${id}/revisions`)).body).toHaveLength(1);
        console.log("four scheduled runs at once:", runs.map((run) => run.published.length).join(" + "), "published");
      } finally {
        await other.close();
      }
    });
  });

  describe("the tier preview", () => {
    const preview = (id: number, query: string, headers: Record<string, string> = { cookie }) => api(`/admin/preview/${id}?${query}`, { headers });

    it("shows a draft, or a pending draft, as a reader of a tier would get it, never cached, noindex, publishing nothing", async () => {
      const draft = await newChapter({ draft: true, level: "Architect", title: "Unpublished Plan", content: "Draft-only words." });
      await call("/api/admin/subsections", "POST", { chapterId: draft.id, title: "A draft part", content: "Part words.", draft: true });
      const response = await preview(draft.id, "tier=Mastermind&version=draft");
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("private, no-store");
      // The CDN's stand-in takes its own header off; the function's answer carries it.
      const direct = await previewPage(new Request(`http://localhost/admin/preview/${draft.id}?tier=Mastermind&version=draft`, { headers: { cookie } }), String(draft.id));
      expect(direct.headers.get("netlify-cdn-cache-control")).toBe("no-store");
      expect((await preview(draft.id, "tier=Mastermind&version=draft")).headers.get("cache-status") ?? "").not.toContain("hit");
      expect(response.headers.get("x-robots-tag")).toBe("noindex, nofollow");
      const page = await response.text();
      expect(page).toContain('<meta name="robots" content="noindex, nofollow">');
      expect(page).toContain('data-preview-tier="Mastermind"');
      expect(page).toContain("Draft-only words.");
      expect(page).toContain("A draft part");
      expect(page).toContain("Unpublished Plan");
      expect(page).toContain("Preview as Mastermind · draft, not published");
      expect((await api(`/api/chapters/${draft.slug}`)).status).toBe(404);
      expect((await preview(draft.id, "tier=Mastermind&version=live")).status).toBe(404);

      // An Operator reader is sent to /resume for an Architect chapter: the preview says so.
      const operator = await (await preview(draft.id, "tier=Operator&version=draft")).text();
      expect(operator).not.toContain("Draft-only words.");
      expect(operator).toContain("/resume");
      // In the site's look (the built notice page) and in plain words (issue 22: 12).
      expect(operator).toContain('<link rel="stylesheet" href="/_astro/site.css">');
      expect(operator).toContain("<h1>Preview as Operator: not shown</h1>");
      expect(operator).toContain("“Unpublished Plan”, an Architect chapter");
      expect(operator).toContain('<a href="/admin">Back to the admin panel</a>');

      const live = await newChapter({ content: "Live now." });
      await call(`/api/admin/chapters/${live.id}`, "PUT", chapterBody({ slug: live.slug, content: "Coming soon.", draft: true }));
      expect(await (await preview(live.id, "tier=Operator&version=live")).text()).toContain("Live now.");
      expect(await (await preview(live.id, "tier=Operator&version=draft")).text()).toContain("Coming soon.");
      expect(((await (await api(`/api/chapters/${live.slug}?fresh=1`)).json()) as Json).content).toBe("Live now.");
    });

    it("is the admin's alone, and refuses what it cannot show", async () => {
      const chapter = await newChapter();
      const anonymous = await preview(chapter.id, "tier=Operator", {});
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get("cache-control")).toBe("private, no-store");
      expect(await anonymous.text()).not.toContain(chapter.content);
      const reader = await loginAs(api, database.db, "Mastermind");
      expect((await preview(chapter.id, "tier=Mastermind", { cookie: reader.cookie })).status).toBe(403);
      expect((await preview(chapter.id, "tier=Wizard")).status).toBe(400);
      expect((await preview(chapter.id, "version=later")).status).toBe(400);
      expect((await preview(999999, "tier=Operator")).status).toBe(404);
      expect((await api(`/admin/preview/${chapter.id}`, { method: "POST", headers: { cookie } })).status).toBe(405);
    });
  });
});
