/**
 * A purge that fails is a job, not a lost cause (issue 21: 3): on Netlify every purge is written to
 * cache_purges before it is tried; one the purge API refuses stays open, is tried again with
 * backoff by the scheduled run (and at once by the next save or Publish), and the publish status
 * shows it as failed until it goes through, then as done. Netlify's purge API is stubbed (fetch:
 * it is an https call to api.netlify.com), the database is real: PGlite, PostgreSQL and Neon.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { config, useConfig } from "../../src/server/config.ts";
import { siteContentOf, takeSnapshot } from "../../src/server/build/snapshot.ts";
import { isNull } from "../../src/server/db/orm.ts";
import { cachePurges } from "../../src/server/db/schema.ts";
import { runRetention } from "../../src/server/maintenance/retention.ts";
import { runPublishingJobs } from "../../src/server/maintenance/scheduled-publishing.ts";
import { purgeBackoffMs } from "../../src/server/publish/cache-purge.ts";
import { publishNow, PURGE_RETRY_DELAYS_MS, schedulePublish, SECOND_PURGE_MS } from "../../src/server/publish/publisher.ts";
import { markPublished, purgeFailedMessage, readPublishView } from "../../src/server/publish/state.ts";
import { localPhotoStore } from "../../src/server/uploads/photo-store.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";

const MINUTE = 60_000;

describe.each(databaseTargets())("cache purges as jobs on $name", (target) => {
  const previous = config();
  let database: TestDatabase;
  /** The purge API: answers 500 while `down`; records each call's body. */
  let api: { down: boolean; calls: Array<{ cache_tags: string[]; site_id: string }> };

  beforeAll(async () => {
    database = await target.open();
    process.env.SITE_ID = "test-site";
    process.env.NETLIFY_PURGE_API_TOKEN = "test-purge-token";
  });
  afterAll(async () => {
    useConfig(previous);
    delete process.env.SITE_ID;
    delete process.env.NETLIFY_PURGE_API_TOKEN;
    await database?.dispose();
  });
  beforeEach(async () => {
    useConfig({ ...previous, platform: "netlify-functions", deployContext: "production", buildHookUrl: "https://api.netlify.com/build_hooks/test" });
    api = { down: false, calls: [] };
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      if (!String(input).endsWith("/api/v1/purge")) return new Response("", { status: 200 });
      api.calls.push(JSON.parse(String(init?.body)) as { cache_tags: string[]; site_id: string });
      return new Response(api.down ? "upstream failure" : "", { status: api.down ? 500 : 202 });
    });
    // Each test starts with the static pages live and no purge open.
    await database.db.update(cachePurges).set({ doneAt: new Date() }).where(isNull(cachePurges.doneAt));
    await markPublished(database.db, new Date(), siteContentOf(await takeSnapshot(database.db)));
  });
  afterEach(() => vi.restoreAllMocks());

  it("keeps a purge the API refuses (500), tries it again with backoff until the API recovers, and shows it until done", async () => {
    const t0 = new Date();
    const at = (ms: number) => new Date(t0.getTime() + ms);
    api.down = true;
    await schedulePublish(database.db, t0); // the save answers all the same
    expect(api.calls).toHaveLength(PURGE_RETRY_DELAYS_MS.length + 1);

    let view = await readPublishView(database.db, t0);
    expect(view.state).toBe("failed");
    expect(view.cachePurge).toMatchObject({ state: "failed", attempts: 1, since: t0.toISOString(), nextAttemptAt: at(MINUTE).toISOString() });
    expect(view.cachePurge.lastError).toMatch(/500/);
    expect(view.error).toBe(purgeFailedMessage(view.cachePurge.lastError));
    expect(view.error).toMatch(/cached chapter pages could not be cleared .*500.* tried again automatically until it succeeds/);

    // Not due yet: a scheduled run leaves it waiting.
    let calls = api.calls.length;
    expect((await runPublishingJobs(database.db, at(30_000))).cachePurges).toEqual({ purged: 0, failed: 0, error: null });
    expect(api.calls).toHaveLength(calls);

    // Due, the API still down: one more try each run, each wait longer (2, 4, 8 minutes), then every 15.
    let runAt = at(MINUTE);
    for (const attempts of [2, 3, 4, 5, 6]) {
      calls = api.calls.length;
      const run = await runPublishingJobs(database.db, runAt);
      expect(run.cachePurges).toMatchObject({ purged: 0, failed: 1 });
      expect(api.calls).toHaveLength(calls + 1);
      view = await readPublishView(database.db, runAt);
      const wait = purgeBackoffMs(attempts);
      expect(wait).toBe(Math.min(2 ** (attempts - 1), 15) * MINUTE);
      expect(view.cachePurge).toMatchObject({ state: "failed", attempts, nextAttemptAt: new Date(runAt.getTime() + wait).toISOString() });
      expect(view.state).toBe("failed");
      runAt = new Date(runAt.getTime() + wait);
    }

    // The API is back: the next scheduled run purges the book's pages, and the status says so.
    api.down = false;
    const run = await runPublishingJobs(database.db, runAt);
    expect(run.cachePurges).toEqual({ purged: 1, failed: 0, error: null });
    expect(api.calls.at(-1)).toEqual({ cache_tags: ["book"], site_id: "test-site" });
    view = await readPublishView(database.db, runAt);
    expect(view).toMatchObject({ state: "live", error: null, cachePurge: { state: "done", doneAt: runAt.toISOString(), nextAttemptAt: null } });
    // Done is done: later runs leave it.
    calls = api.calls.length;
    await runPublishingJobs(database.db, new Date(runAt.getTime() + 60 * MINUTE));
    expect(api.calls).toHaveLength(calls);
  });

  it("tries every open purge at once on the next save or Publish, whatever its wait", async () => {
    api.down = true;
    await schedulePublish(database.db);
    await schedulePublish(database.db);
    expect((await readPublishView(database.db)).cachePurge).toMatchObject({ state: "failed" });
    expect(await database.db.select().from(cachePurges).where(isNull(cachePurges.doneAt))).toHaveLength(2);

    api.down = false;
    const calls = api.calls.length;
    const view = await publishNow(database.db);
    expect(api.calls).toHaveLength(calls + 1); // one call for the three open purges
    expect(view.cachePurge.state).toBe("done");
    expect(await database.db.select().from(cachePurges).where(isNull(cachePurges.doneAt))).toEqual([]);
    // The second purge, a moment after the answer, goes through too.
    await vi.waitFor(() => expect(api.calls).toHaveLength(calls + 2), { timeout: SECOND_PURGE_MS + 2000 });
    await vi.waitFor(async () => expect(await database.db.select().from(cachePurges).where(isNull(cachePurges.doneAt))).toEqual([]));
  });

  it("records a purge before it is tried: one whose function stopped mid-way shows as pending and is done by the scheduled run", async () => {
    await database.db.insert(cachePurges).values({ tags: ["book"] }); // written; the instance then went away
    expect((await readPublishView(database.db)).cachePurge).toMatchObject({ state: "pending", attempts: 0, nextAttemptAt: null });
    expect((await readPublishView(database.db)).state).not.toBe("failed");
    expect((await runPublishingJobs(database.db)).cachePurges).toMatchObject({ purged: 1 });
    expect((await readPublishView(database.db)).cachePurge.state).toBe("done");
  });

  it("never removes an open purge in the daily clean-up, however old", async () => {
    const dayAgo = new Date(Date.now() - 24 * 3600 * 1000);
    await database.db.insert(cachePurges).values([
      { tags: ["book"], createdAt: dayAgo, attempts: 3, lastError: "still down", nextAttemptAt: new Date() },
      { tags: ["book"], createdAt: dayAgo, doneAt: dayAgo, attempts: 1 },
    ]);
    const photos = fs.mkdtempSync(path.join(os.tmpdir(), "sb-purge-jobs-"));
    try {
      const report = await runRetention(database.db, { store: localPhotoStore(photos) });
      expect(report.failed).toEqual([]);
      expect(report.cachePurges).toBeGreaterThanOrEqual(1);
    } finally {
      fs.rmSync(photos, { recursive: true, force: true });
    }
    const open = await database.db.select().from(cachePurges).where(isNull(cachePurges.doneAt));
    expect(open.map((job) => job.lastError)).toEqual(["still down"]);
  });
});
