/**
 * Chapter pages from a render cache (issue 20: 7): a locked chapter is rendered once per content
 * version and reader tier, then answered without reading its text again; a save, a restored
 * revision, a move to another level, a deletion, a restore from the deleted items and a write made
 * straight to the database (as the book import and the scheduled job make them) are each seen on
 * the very next request. The content version (migration 0011) moves with every write to the book,
 * in its transaction.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "../../src/server/db/orm.ts";
import {
  chapters,
  contentVersion,
  subsections,
} from "../../src/server/db/schema.ts";
import { RenderCache } from "../../src/server/pages/render-cache.ts";
import { useSitePages } from "../../src/server/pages/site-pages.ts";
import { adminLogin, asAdmin } from "../support/admin.ts";
import { apiClient, type Api } from "../support/api.ts";
import { loginAs } from "../support/auth.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";
import { createChapter, createSubsection } from "../support/factories.ts";
import { statementsOf } from "../support/query-count.ts";
import { minimalShell } from "../support/chapter-shell.ts";

const SHELL = minimalShell();

describe("RenderCache", () => {
  it("keeps pages by key for one shell, drops the least recently used beyond its budget, and empties for a new shell", () => {
    const cache = new RenderCache(25);
    const get = (key: string, shell: string) => {
      const bytes = cache.get(key, shell);
      return bytes && new TextDecoder().decode(bytes);
    };
    expect(get("a", "shell-1")).toBeUndefined();
    cache.set("a", "1234567890");
    cache.set("b", "1234567890");
    expect(get("a", "shell-1")).toBe("1234567890");
    cache.set("c", "1234567890"); // over 25: b, the least recently used, goes
    expect(get("b", "shell-1")).toBeUndefined();
    expect(get("a", "shell-1")).toBe("1234567890");
    expect(get("c", "shell-1")).toBe("1234567890");
    cache.set("huge", "x".repeat(26)); // larger than the whole budget: not kept
    expect(get("huge", "shell-1")).toBeUndefined();
    expect(get("a", "shell-2")).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});

describe.each(databaseTargets())(
  "locked chapter pages from the render cache on $name",
  (target) => {
    let database: TestDatabase;
    let api: Api;
    let admin: string;

    beforeAll(async () => {
      database = await target.open();
      api = await apiClient(database);
      useSitePages((pathname) =>
        pathname === "/chapter-shell" ? SHELL : null,
      );
      ({ cookie: admin } = await adminLogin(api, database.db));
    });
    afterAll(async () => {
      useSitePages(undefined);
      await database?.dispose();
    });

    const version = async () =>
      (await database.db.select().from(contentVersion))[0]!.version;
    const page = async (slug: string, cookie: string) => {
      const response = await api(`/${slug}`, {
        headers: { cookie },
        redirect: "manual",
      });
      return {
        status: response.status,
        location: response.headers.get("location"),
        text: await response.text(),
      };
    };

    it("moves the content version with every write to the book, at its commit, and only then", async () => {
      const before = await version();
      const chapter = await createChapter(database.db, { level: "Architect" });
      expect(await version()).toBeGreaterThan(before);
      const afterInsert = await version();
      await database.db.transaction(async (tx) => {
        await tx
          .update(chapters)
          .set({ title: "Inside a transaction" })
          .where(eq(chapters.id, chapter.id));
        // Not before the commit: nobody may see a new version without the new content. (Seen from
        // another connection: the embedded database has one only.)
        if (target.name !== "pglite")
          expect(
            (await database.db.select().from(contentVersion))[0]!.version,
          ).toBe(afterInsert);
      });
      expect(await version()).toBeGreaterThan(afterInsert);
      const part = await createSubsection(database.db, chapter.id);
      const afterPart = await version();
      await database.db.delete(subsections).where(eq(subsections.id, part.id));
      expect(await version()).toBeGreaterThan(afterPart);
      // Other tables leave it alone.
      const still = await version();
      await loginAs(api, database.db, "Architect");
      expect(await version()).toBe(still);
    });

    it("renders a locked chapter once per version and tier, then answers without reading its text", async () => {
      const chapter = await createChapter(database.db, {
        level: "Architect",
        content: "The first telling.",
      });
      await createSubsection(database.db, chapter.id, {
        title: "A part",
        content: "Its words.",
      });
      const { cookie } = await loginAs(api, database.db, "Architect");
      const first = await page(chapter.slug, cookie);
      expect(first.status).toBe(200);
      expect(first.text).toContain("The first telling.");
      const statements = await statementsOf(async () =>
        expect(await page(chapter.slug, cookie)).toEqual(first),
      );
      // The key (the version with the chapter's id and level) and the session: nothing of the text.
      expect(statements.some((s) => /json_agg/.test(s))).toBe(false);
      expect(statements.length).toBeLessThanOrEqual(2);
      // A reader of another tier is checked and rendered for on their own.
      const mastermind = await loginAs(api, database.db, "Mastermind");
      expect((await page(chapter.slug, mastermind.cookie)).text).toContain(
        "The first telling.",
      );
      expect(
        (
          await page(
            chapter.slug,
            (await loginAs(api, database.db, "Operator")).cookie,
          )
        ).location,
      ).toBe("/resume?level=Architect");
    });

    it("shows a save, a restored revision, a move, a deletion, a restore and a write straight to the database on the next request", async () => {
      const chapter = await createChapter(database.db, {
        level: "Architect",
        content: "Version one.",
      });
      const { cookie } = await loginAs(api, database.db, "Architect");
      const mastermind = (await loginAs(api, database.db, "Mastermind")).cookie;
      const fields = {
        slug: chapter.slug,
        title: chapter.title,
        readingTime: chapter.readingTime,
        order: chapter.order,
        level: "Architect",
      };
      const save = async (values: Record<string, unknown>) =>
        expect(
          (
            await api(
              `/api/admin/chapters/${chapter.id}`,
              asAdmin(admin, "PUT", { ...fields, ...values }),
            )
          ).status,
        ).toBe(200);
      expect((await page(chapter.slug, cookie)).text).toContain("Version one.");

      await save({ content: "Version two." });
      expect((await page(chapter.slug, cookie)).text).toContain("Version two.");

      const [revision] = (await (
        await api(`/api/admin/chapters/${chapter.id}/revisions`, asAdmin(admin))
      ).json()) as Array<{ id: number }>;
      expect(
        (
          await api(
            `/api/admin/revisions/${revision!.id}/restore`,
            asAdmin(admin, "POST"),
          )
        ).status,
      ).toBe(200);
      expect((await page(chapter.slug, cookie)).text).toContain("Version one.");

      await save({ content: "Version three.", level: "Mastermind" });
      expect((await page(chapter.slug, cookie)).location).toBe("/resume?level=Mastermind");
      expect((await page(chapter.slug, mastermind)).text).toContain(
        "Version three.",
      );
      await save({ content: "Version three.", level: "Architect" });
      expect((await page(chapter.slug, cookie)).text).toContain(
        "Version three.",
      );

      expect(
        (
          await api(
            `/api/admin/chapters/${chapter.id}`,
            asAdmin(admin, "DELETE"),
          )
        ).status,
      ).toBe(200);
      const gone = await page(chapter.slug, cookie);
      expect(gone.status).toBe(404);
      expect(gone.text).toContain("Chapter not found");
      expect(
        (
          await api(
            `/api/admin/chapters/${chapter.id}/restore`,
            asAdmin(admin, "PUT"),
          )
        ).status,
      ).toBe(200);
      expect((await page(chapter.slug, cookie)).text).toContain(
        "Version three.",
      );

      // As the book import and the scheduled publishing job write: straight to the database.
      await database.db.execute(
        sql`UPDATE chapters SET content = 'Version four.' WHERE id = ${chapter.id}`,
      );
      expect((await page(chapter.slug, cookie)).text).toContain(
        "Version four.",
      );
      const [part] = await database.db
        .insert(subsections)
        .values({
          chapterId: chapter.id,
          slug: "a-later-part",
          title: "A later part",
          content: "Written later.",
          order: 1,
        })
        .returning();
      expect((await page(chapter.slug, cookie)).text).toContain(
        "Written later.",
      );
      await database.db
        .update(subsections)
        .set({ deletedAt: new Date() })
        .where(eq(subsections.id, part!.id));
      expect((await page(chapter.slug, cookie)).text).not.toContain(
        "Written later.",
      );
    });
  },
);
