/**
 * Every answer the CDN may keep is kept at most CDN_MAX_AGE_S (issue 21: 3): the chapter pages and
 * the chapter API were kept "durably" for a year, so a purge that was lost left a withdrawn chapter
 * public for as long. Every address a function answers is asked (from the route table, so a new
 * cacheable route is covered the day it is added), anonymously and signed in, and each answer that
 * tells the CDN to keep it must carry the cap. Then the heal itself: with no purge at all, a chapter
 * moved to a locked level leaves the CDN (the local host's stand-in, which honours the same headers)
 * once the cap has passed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seed } from "../../src/server/content/seed.ts";
import { eq } from "../../src/server/db/orm.ts";
import { chapters } from "../../src/server/db/schema.ts";
import { CdnCache, cdnLifetime } from "../../src/server/host/cdn-cache.ts";
import { CDN_MAX_AGE_S } from "../../src/server/http/cdn.ts";
import { useSitePages } from "../../src/server/pages/site-pages.ts";
import { listChapters } from "../../src/server/repositories/chapters.ts";
import { adminLogin } from "../support/admin.ts";
import { apiClient, type Api } from "../support/api.ts";
import { loginAs } from "../support/auth.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";
import { FUNCTION_PATTERNS } from "../support/routes.ts";
import { minimalShell } from "../support/chapter-shell.ts";

const SHELL = minimalShell();
const shellOnly = (pathname: string) => (pathname === "/chapter-shell" ? SHELL : null);

describe.each(databaseTargets())("the CDN's lifetime cap on $name", (target) => {
  let database: TestDatabase;
  let api: Api;
  beforeAll(async () => {
    database = await target.open();
    await seed(database.db);
    api = await apiClient(database);
    useSitePages(shellOnly);
  });
  afterAll(async () => {
    useSitePages(undefined);
    await database?.dispose();
  });

  it("is an hour", () => {
    expect(CDN_MAX_AGE_S).toBe(3600);
  });

  it("is on every answer the CDN may keep: chapter pages and the chapter API included", async () => {
    // A chapter of each level stands for the book (each level's answers differ in what may be kept).
    const all = await listChapters(database.db);
    const book = ["Operator", "Architect", "Mastermind"].map((level) => all.find((chapter) => chapter.level === level)!);
    const callers: Record<string, string | undefined> = {
      anonymous: undefined,
      Architect: (await loginAs(api, database.db, "Architect")).cookie,
      Mastermind: (await loginAs(api, database.db, "Mastermind")).cookie,
      admin: (await adminLogin(api, database.db)).cookie,
    };
    const kept = new Map<string, string>();
    for (const chapter of book) {
      const sample: Record<string, string> = { slug: chapter.slug, chapterId: String(chapter.id), id: String(chapter.id), kind: "chapters" };
      for (const pattern of FUNCTION_PATTERNS) {
        const pathname = pattern.replace(/:(\w+)/g, (_, name: string) => sample[name] ?? "1");
        for (const suffix of pattern === "/api/search" ? ["?q=pattern", "?q=the"] : [""]) {
          for (const [who, cookie] of Object.entries(callers)) {
            const response = await api(pathname + suffix, { headers: cookie ? { cookie } : {} });
            await response.arrayBuffer();
            if (cdnLifetime(response.headers) === 0) continue;
            const policy = response.headers.get("netlify-cdn-cache-control") ?? response.headers.get("cdn-cache-control");
            expect(policy, `${who} ${pathname}${suffix}`).toBe(`public, durable, s-maxage=${CDN_MAX_AGE_S}`);
            expect(cdnLifetime(response.headers), `${who} ${pathname}${suffix}`).toBeLessThanOrEqual(CDN_MAX_AGE_S);
            // Browsers always ask again (a browser's copy outlives no purge).
            expect(response.headers.get("cache-control"), pathname).toBe("public, max-age=0, must-revalidate");
            kept.set(pattern, policy!);
          }
        }
      }
    }
    // The answers the CDN keeps, all of them capped (so the walk above did find them).
    expect([...kept.keys()].sort()).toEqual(expect.arrayContaining(["/:slug", "/api/chapters", "/api/chapters/:chapterId/subsections", "/api/chapters/:slug"]));
  }, 120_000);

  it("heals a lost purge: once the cap has passed, a chapter moved to a locked level is no longer served from the CDN", async () => {
    let now = Date.now();
    const cache = new CdnCache({ clock: () => now });
    const cached = await apiClient(database, undefined, { cache });
    useSitePages(shellOnly);
    const [open] = (await listChapters(database.db, ["Operator"])).slice(-1);
    for (const path of [`/${open!.slug}`, `/api/chapters/${open!.slug}`]) {
      expect((await cached(path)).headers.get("cache-status"), path).toContain("stored");
    }
    // Moved behind the admin panel's back: nothing purges the CDN.
    await database.db.update(chapters).set({ level: "Mastermind" }).where(eq(chapters.id, open!.id));
    now += (CDN_MAX_AGE_S - 60) * 1000;
    const stale = await cached(`/${open!.slug}`);
    expect(stale.status).toBe(200); // what the cap bounds: a lost purge leaves the page up to this long
    expect(stale.headers.get("cache-status")).toContain("hit");
    now += 61 * 1000;
    const page = await cached(`/${open!.slug}`);
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("/resume?level=Mastermind");
    expect((await cached(`/api/chapters/${open!.slug}`)).status).toBe(401);
  });
});
