/**
 * Reads of the open level are the same for everyone: they carry an ETag and CDN cache headers, so
 * the CDN (here the local host's stand-in) answers them, and a browser's revalidation gets 304
 * (issue 13). A content change purges them; anything of a locked level, or asked for fresh, is
 * the caller's own and never kept.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CdnCache } from "../../src/server/host/cdn-cache.ts";
import { listChapters } from "../../src/server/repositories/chapters.ts";
import { adminLogin, asAdmin } from "../support/admin.ts";
import { apiClient, type Api } from "../support/api.ts";
import { loginAs } from "../support/auth.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";
import { seed } from "../../src/server/content/seed.ts";

describe.each(databaseTargets())("cacheable reads on $name", (target) => {
  let database: TestDatabase;
  let api: Api;
  beforeAll(async () => {
    database = await target.open();
    await seed(database.db);
    api = await apiClient(database, undefined, { cache: new CdnCache() });
  });
  afterAll(() => database?.dispose());

  /** Asks twice, the second time with the first answer's ETag: answers both. */
  async function revalidated(path: string, init: RequestInit = {}) {
    const first = await api(path, init);
    const etag = first.headers.get("etag");
    const second = await api(path, { ...init, headers: { ...(init.headers as Record<string, string>), ...(etag ? { "if-none-match": etag } : {}) } });
    return { first, second, etag };
  }

  it("answers the chapter list, an Operator chapter and its subsections from the CDN, 304 when unchanged", async () => {
    const [open] = await listChapters(database.db, ["Operator"]);
    for (const path of ["/api/chapters", `/api/chapters/${open!.slug}`, `/api/chapters/${open!.id}/subsections`]) {
      const { first, second, etag } = await revalidated(path);
      expect(first.status, path).toBe(200);
      expect(etag, path).toMatch(/^"[\w-]{27}"$/);
      expect(first.headers.get("cache-control"), path).toBe("public, max-age=0, must-revalidate");
      expect(second.status, path).toBe(304);
      expect(second.headers.get("cache-status"), path).toContain("hit");
    }
  });

  it("keeps nothing of a locked level, nor an answer asked for fresh", async () => {
    const [locked] = await listChapters(database.db, ["Mastermind"]);
    const { cookie } = await loginAs(api, database.db, "Mastermind");
    const reader = { headers: { cookie } };
    for (const path of [`/api/chapters/${locked!.slug}`, `/api/chapters/${locked!.id}/subsections`]) {
      const { first, second, etag } = await revalidated(path, reader);
      expect(first.status, path).toBe(200);
      expect(etag, path).toBeNull();
      expect(first.headers.get("cache-control"), path).toBe("no-store");
      expect(second.status, path).toBe(200);
      expect(second.headers.get("cache-status"), path).not.toContain("hit");
      // And nobody else gets it from the cache.
      expect((await api(path)).status, path).toBe(401);
    }
    const [open] = await listChapters(database.db, ["Operator"]);
    const fresh = await api(`/api/chapters/${open!.id}/subsections?fresh=1`);
    expect(fresh.headers.get("etag")).toBeNull();
    expect(fresh.headers.get("cache-control")).toBe("no-store");
  });

  it("answers with the new content as soon as an edit is saved", async () => {
    const { etag } = await revalidated("/api/chapters");
    const [open] = await listChapters(database.db, ["Operator"]);
    const { cookie } = await adminLogin(api, database.db);
    const edit = { slug: open!.slug, title: `${open!.title} (revised)`, content: "Revised.", readingTime: 5, order: open!.order, level: "Operator" };
    expect((await api(`/api/admin/chapters/${open!.id}`, asAdmin(cookie, "PUT", edit))).status).toBe(200);
    const after = await api("/api/chapters", { headers: { "if-none-match": etag! } });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(etag);
    expect(JSON.stringify(await after.json())).toContain(`${open!.title} (revised)`);
  });
});
