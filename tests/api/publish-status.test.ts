/**
 * The publish status tells the operator what stands between a change and readers (issue 21: 2
 * and 12): a site build that failed leaves the static search index with the old text (words
 * since changed or withdrawn included), and the status says so until a build succeeds; a Netlify
 * build that never reports back is shown as failed; a production deploy without BUILD_HOOK_URL
 * reports the missing variable there (and only there: the site serves on). The site build is
 * stood in for by a function that fails as `astro build` or the search index's writing would, or answers the stamp
 * of the content it built.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { config, MALFORMED_HOOK, readConfig, useConfig } from "../../src/server/config.ts";
import { siteContentOf, takeSnapshot } from "../../src/server/build/snapshot.ts";
import { eq } from "../../src/server/db/orm.ts";
import { chapters } from "../../src/server/db/schema.ts";
import { seed } from "../../src/server/content/seed.ts";
import { listChapters } from "../../src/server/repositories/chapters.ts";
import { createLocalPublisher } from "../../src/server/publish/local-publisher.ts";
import { publishedByBuild } from "../../src/server/publish/netlify-build.ts";
import { callBuildHook, schedulePublish, useLocalPublisher } from "../../src/server/publish/publisher.ts";
import { markPublished, markRequested, MISSING_HOOK, readPublishView, STALE_BUILD, STALE_BUILD_MS } from "../../src/server/publish/state.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";

describe.each(databaseTargets())("the publish status on $name", (target) => {
  const previous = config();
  let database: TestDatabase;
  const content = async () => siteContentOf(await takeSnapshot(database.db));

  beforeAll(async () => {
    database = await target.open();
    await seed(database.db);
  });
  afterAll(async () => {
    useConfig(previous);
    useLocalPublisher(undefined);
    await database?.dispose();
  });
  beforeEach(async () => {
    useConfig(previous);
    await markPublished(database.db, new Date(), await content());
  });
  afterEach(() => vi.restoreAllMocks());

  /** Edits an open chapter's text behind the admin panel's back, as a content change. */
  async function editOpenText(words: string) {
    const [open] = await listChapters(database.db, ["Operator"]);
    await database.db.update(chapters).set({ content: words }).where(eq(chapters.id, open!.id));
    await markRequested(database.db);
  }

  it("says the search index is current once built, and out of date (with the failed build's reason) after a site build fails", async () => {
    const first = await readPublishView(database.db);
    expect(first.searchIndex).toEqual({ state: "current", asOf: first.lastPublishedAt, withdrawn: 0, exposed: false });

    await editOpenText("Words that replace the withdrawn ones.");
    const failing = createLocalPublisher({
      db: database.db,
      debounceMs: 5,
      build: async () => {
        throw new Error("ENOSPC: no space left on device, write 'dist/search-index/entry.json'");
      },
    });
    failing.now();
    await failing.idle();
    const failed = await readPublishView(database.db);
    expect(failed.state).toBe("failed");
    expect(failed.error).toContain("The site build failed: ENOSPC: no space left on device, write 'dist/search-index/entry.json'");
    // The index still holds the text of the last publish: the status says so, and of when, and
    // that one chapter's withdrawn words stay public in its files with no build coming.
    expect(failed.searchIndex).toEqual({ state: "outdated", asOf: first.lastPublishedAt, withdrawn: 1, exposed: true });

    // While a build runs, it is being updated; once one succeeds, it is current again.
    let release!: () => void;
    const working = createLocalPublisher({
      db: database.db,
      debounceMs: 5,
      build: async () => {
        await new Promise<void>((resolve) => (release = resolve));
        return content();
      },
    });
    working.now();
    await vi.waitFor(() => expect(release).toBeDefined()); // the build is under way
    expect((await readPublishView(database.db)).state).toBe("publishing");
    expect((await readPublishView(database.db)).searchIndex).toMatchObject({ state: "updating", withdrawn: 1, exposed: false });
    release();
    await working.idle();
    const live = await readPublishView(database.db);
    expect(live).toMatchObject({ state: "live", error: null, searchIndex: { state: "current", withdrawn: 0, exposed: false } });
  });

  it("tells withdrawn open text from added text: a new chapter after a failed build withdraws nothing, a deletion or a move to a locked level does", async () => {
    const failing = createLocalPublisher({ db: database.db, debounceMs: 5, build: async () => Promise.reject(new Error("astro build exited with code 1.")) });
    const failBuild = async () => {
      await markRequested(database.db);
      failing.now();
      await failing.idle();
    };
    const [first, second] = await listChapters(database.db, ["Operator"]);
    const [added] = await database.db.insert(chapters).values({ slug: "new-open-words", title: "New open words", content: "Added text.", order: 99 }).returning();
    await failBuild();
    expect((await readPublishView(database.db)).searchIndex).toMatchObject({ state: "outdated", withdrawn: 0, exposed: false });
    await database.db.update(chapters).set({ level: "Architect" }).where(eq(chapters.id, first!.id));
    await database.db.update(chapters).set({ deletedAt: new Date() }).where(eq(chapters.id, second!.id));
    await failBuild();
    expect((await readPublishView(database.db)).searchIndex).toMatchObject({ state: "outdated", withdrawn: 2, exposed: true });
    // Put back as it was: the files hold the live text again, nothing is withdrawn.
    await database.db.update(chapters).set({ level: "Operator" }).where(eq(chapters.id, first!.id));
    await database.db.update(chapters).set({ deletedAt: null }).where(eq(chapters.id, second!.id));
    await database.db.delete(chapters).where(eq(chapters.id, added!.id));
    expect((await readPublishView(database.db)).searchIndex).toMatchObject({ state: "current", withdrawn: 0, exposed: false });
  });

  it("says so for a failed Netlify build too", async () => {
    await editOpenText("Text a Netlify build never indexed.");
    await expect(
      publishedByBuild(database.db, async () => {
        throw new Error("astro build exited with code 1.");
      }),
    ).rejects.toThrow();
    const view = await readPublishView(database.db);
    expect(view.error).toContain("The Netlify build failed: astro build exited with code 1.");
    expect(view.searchIndex).toMatchObject({ state: "outdated", withdrawn: 1, exposed: true });
  });

  it("shows a Netlify build that never reported back as failed after 20 minutes", async () => {
    useConfig({ ...previous, platform: "netlify-functions", deployContext: "production", buildHookUrl: "https://api.netlify.com/build_hooks/test" });
    vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response("", { status: 200 }));
    await editOpenText("Text of a build that died.");
    const startedAt = new Date();
    await callBuildHook(database.db, startedAt);
    expect(await readPublishView(database.db, new Date(startedAt.getTime() + 60_000))).toMatchObject({ state: "publishing", error: null, searchIndex: { state: "updating" } });
    const later = await readPublishView(database.db, new Date(startedAt.getTime() + STALE_BUILD_MS + 60_000));
    expect(later).toMatchObject({ state: "failed", error: STALE_BUILD, searchIndex: { state: "outdated" } });
  });

  it("reports a missing or malformed BUILD_HOOK_URL in production, before any publish and after a change (which stays pending)", async () => {
    useConfig({ ...previous, platform: "netlify-functions", deployContext: "production", buildHookUrl: undefined });
    process.env.SITE_ID = "test-site";
    process.env.NETLIFY_PURGE_API_TOKEN = "test-purge-token";
    const requests: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
      requests.push(String(input));
      return new Response("", { status: 202 });
    });
    try {
      expect(await readPublishView(database.db)).toMatchObject({ state: "failed", error: MISSING_HOOK, pending: false });
      await editOpenText("Text that needs a build.");
      await schedulePublish(database.db);
      const view = await readPublishView(database.db);
      // No build will follow: the withdrawn words stay public in the search files, and it says so.
      expect(view).toMatchObject({ state: "failed", error: MISSING_HOOK, pending: true, cachePurge: { state: "done" }, searchIndex: { state: "outdated", withdrawn: 1, exposed: true } });
      // The purge went out (the change is live on the chapter pages); no build could be asked for.
      expect(requests.filter((url) => url.endsWith("/api/v1/purge")).length).toBeGreaterThanOrEqual(1);
      // A malformed hook (a typo, or http://) serves the site too, and the status names it.
      const malformed = readConfig({ DATABASE_URL: "postgres://x@localhost/db", SESSION_SECRET: "s".repeat(32), BUILD_HOOK_URL: "api.netlify.com/build_hooks/typo" }, "netlify-functions", "production");
      expect(malformed).toMatchObject({ buildHookUrl: undefined, buildHookProblem: MALFORMED_HOOK });
      useConfig({ ...previous, platform: "netlify-functions", deployContext: "production", buildHookUrl: undefined, buildHookProblem: MALFORMED_HOOK });
      expect(await readPublishView(database.db)).toMatchObject({ state: "failed", error: MALFORMED_HOOK, pending: true });
      await callBuildHook(database.db);
      expect(await readPublishView(database.db)).toMatchObject({ state: "failed", error: MALFORMED_HOOK });
      // Once the hook is set right, the hook's old complaint goes: the change waits for Publish.
      useConfig({ ...previous, platform: "netlify-functions", deployContext: "production", buildHookUrl: "https://api.netlify.com/build_hooks/x", buildHookProblem: undefined });
      expect(await readPublishView(database.db)).toMatchObject({ state: "live", error: null, pending: true });
      // A deploy preview needs no hook: nothing to report there, but no build follows its changes.
      useConfig({ ...previous, platform: "netlify-functions", deployContext: "deploy-preview", buildHookUrl: undefined, buildHookProblem: undefined });
      await markPublished(database.db, new Date(), await content());
      expect(await readPublishView(database.db)).toMatchObject({ state: "live", error: null });
      await editOpenText("Text a deploy preview never indexes.");
      expect((await readPublishView(database.db)).searchIndex).toMatchObject({ state: "outdated", withdrawn: 1, exposed: true });
    } finally {
      await new Promise((resolve) => setTimeout(resolve, 1500)); // the second purge, after the answer
      delete process.env.SITE_ID;
      delete process.env.NETLIFY_PURGE_API_TOKEN;
    }
  });
});
