/**
 * Publishing on Netlify: a content change purges the CDN's cached chapter pages through Netlify's
 * purge API (twice: at once and SECOND_PURGE_MS later) and calls the build hook only when what the
 * static pages hold changed: the chapter list, or the open level's text in the search index
 * (fetch stubbed: both are https calls to Netlify).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { config, useConfig } from "../config.ts";
import { openDatabase, type DatabaseHandle } from "../db/client.ts";
import { eq } from "../db/orm.ts";
import { chapters } from "../db/schema.ts";
import { siteContentOf, takeSnapshot } from "../build/snapshot.ts";
import { MISSING_HOOK, publishNow, PURGE_RETRY_DELAYS_MS, schedulePublish, SECOND_PURGE_MS } from "./publisher.ts";
import { markPublished, readPublishView } from "./state.ts";

describe("publishing on Netlify", () => {
  const previous = config();
  const hook = "https://api.netlify.com/build_hooks/0123456789abcdef";
  let database: DatabaseHandle;
  let calls: string[];

  beforeAll(async () => {
    database = await openDatabase({ driver: "pglite", dataDir: null });
    await database.migrate();
    process.env.SITE_ID = "test-site";
    process.env.NETLIFY_PURGE_API_TOKEN = "test-purge-token";
  });
  afterAll(async () => {
    useConfig(previous);
    delete process.env.SITE_ID;
    delete process.env.NETLIFY_PURGE_API_TOKEN;
    await database?.close();
  });
  beforeEach(() => {
    calls = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = String(input);
      calls.push(url === hook ? "hook" : url.endsWith("/api/v1/purge") ? `purge ${String(init?.body)}` : url);
      return new Response("", { status: 200 });
    });
  });
  afterEach(() => vi.restoreAllMocks());

  const onNetlify = (values: Partial<typeof previous> = {}) =>
    useConfig({ ...previous, platform: "netlify-functions", deployContext: "production", buildHookUrl: hook, ...values });
  const publishedNow = async () => markPublished(database.db, new Date(), siteContentOf(await takeSnapshot(database.db)));
  const addChapter = (slug: string) => database.db.insert(chapters).values({ slug, title: slug, content: "Text.", order: 1 });

  it("purges the cached pages at once and again a moment later; an edit of a locked level's text needs no build", async () => {
    onNetlify();
    const [locked] = await database.db.insert(chapters).values({ slug: "locked-text", title: "Locked", content: "Locked text.", order: 1, level: "Mastermind" }).returning();
    await publishedNow();
    await database.db.update(chapters).set({ content: "Edited locked text." }).where(eq(chapters.id, locked!.id));
    await schedulePublish(database.db); // the list and the open level's text are unchanged
    expect(calls).toEqual(['purge {"cache_tags":["book"],"site_id":"test-site"}']);
    expect(await readPublishView(database.db)).toMatchObject({ state: "live", pending: false });
    await new Promise((resolve) => setTimeout(resolve, SECOND_PURGE_MS + 200));
    expect(calls).toHaveLength(2);
    expect(calls[1]).toBe(calls[0]);
  });

  it("calls the build hook for an edit of the open level's text, which the static search index holds", async () => {
    onNetlify();
    const [open] = await database.db.insert(chapters).values({ slug: "open-text", title: "Open", content: "Old words.", order: 1, level: "Operator" }).returning();
    await publishedNow();
    await database.db.update(chapters).set({ content: "New words to find." }).where(eq(chapters.id, open!.id));
    await schedulePublish(database.db);
    expect(calls.filter((call) => call === "hook")).toHaveLength(1);
    expect((await readPublishView(database.db)).state).toBe("publishing");
  });

  it("calls the build hook once per list change, not again while that build runs, and again on Publish", async () => {
    onNetlify();
    await publishedNow();
    await addChapter("a-new-chapter");
    await schedulePublish(database.db);
    expect(calls.filter((call) => call === "hook")).toHaveLength(1);
    expect((await readPublishView(database.db)).state).toBe("publishing");

    await addChapter("another-chapter");
    await schedulePublish(database.db); // a build is under way: it is only marked pending
    expect(calls.filter((call) => call === "hook")).toHaveLength(1);
    expect((await readPublishView(database.db)).pending).toBe(true);

    await publishNow(database.db); // Publish now forces another build
    expect(calls.filter((call) => call === "hook")).toHaveLength(2);
    expect(calls.filter((call) => call.startsWith("purge"))).toHaveLength(3);
  });

  it("calls the build hook once when several instances save list changes at once", async () => {
    onNetlify();
    await publishedNow();
    await addChapter("saved-at-once");
    await Promise.all(Array.from({ length: 6 }, () => schedulePublish(database.db)));
    expect(calls.filter((call) => call === "hook")).toHaveLength(1);
    expect(await readPublishView(database.db)).toMatchObject({ state: "publishing" });
  });

  it("never calls the production build hook from a deploy preview", async () => {
    onNetlify({ deployContext: "deploy-preview" });
    await publishedNow();
    await addChapter("a-preview-chapter");
    await schedulePublish(database.db);
    expect(calls).not.toContain("hook");
    expect(calls.filter((call) => call.startsWith("purge"))).toHaveLength(1);
    expect((await readPublishView(database.db)).error).toMatch(/deploy-preview deploy/);
  });

  it("records why publishing failed: a refused hook, no hook configured, a failed purge", async () => {
    onNetlify();
    await publishedNow();
    await addChapter("refused-hook");
    vi.mocked(fetch).mockImplementation(async (input) =>
      String(input) === hook ? new Response("nope", { status: 404, statusText: "Not Found" }) : new Response(""),
    );
    await schedulePublish(database.db);
    expect((await readPublishView(database.db)).error).toContain("the build hook answered 404");

    onNetlify({ buildHookUrl: undefined });
    await publishNow(database.db);
    expect((await readPublishView(database.db)).error).toBe(MISSING_HOOK);

    onNetlify();
    vi.mocked(fetch).mockImplementation(async (input) =>
      String(input).endsWith("/api/v1/purge") ? new Response("", { status: 401 }) : new Response(""),
    );
    await publishedNow();
    await schedulePublish(database.db);
    const view = await readPublishView(database.db);
    expect(view.state).toBe("failed");
    expect(view.error).toMatch(/cached chapter pages could not be cleared .*401/);
  });

  it("tries a failed purge again before the save answers, so a passing failure withdraws the page all the same", async () => {
    onNetlify();
    await publishedNow();
    let purges = 0;
    vi.mocked(fetch).mockImplementation(async (input) => {
      if (!String(input).endsWith("/api/v1/purge")) return new Response("");
      purges++;
      return new Response("", { status: purges <= PURGE_RETRY_DELAYS_MS.length ? 503 : 200 });
    });
    await schedulePublish(database.db);
    expect(purges).toBe(PURGE_RETRY_DELAYS_MS.length + 1);
    expect(await readPublishView(database.db)).toMatchObject({ state: "live", error: null });
  });
});
