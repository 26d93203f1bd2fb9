import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordHeartbeat, readingStats } from "../../src/server/reading/activity.ts";
import { apiClient, type Api } from "../support/api.ts";
import { jsonPost, loginAs } from "../support/auth.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";
import { createChapter } from "../support/factories.ts";

describe.each(databaseTargets())("reading activity on $name", (target) => {
  let database: TestDatabase;
  let api: Api;
  beforeAll(async () => {
    database = await target.open();
    api = await apiClient(database);
  });
  afterAll(() => database?.dispose());

  it("gives a new client honest zeros, and refuses anonymous callers", async () => {
    const { cookie } = await loginAs(api, database.db, "Architect");
    const stats = await api("/api/profile/stats", { headers: { cookie } });
    expect(await stats.json()).toEqual({ streakDays: 0, week: Array(7).fill(false), sessions: 0, averageMinutes: 0 });
    expect((await api("/api/profile/stats")).status).toBe(401);
    expect((await api("/api/reading/heartbeat", jsonPost({ slug: "x" }))).status).toBe(401);
  });

  it("records heartbeats into sessions: a gap over 30 minutes starts a new one; each beat adds at most a minute", async () => {
    const { cookie, code } = await loginAs(api, database.db, "Architect");
    const chapter = await createChapter(database.db);
    const beat = await api("/api/reading/heartbeat", jsonPost({ slug: chapter.slug }, { cookie }));
    expect(beat.status).toBe(204);

    const [row] = await database.db.query.accessCodes.findMany({ where: (t, { eq }) => eq(t.login, code.login) });
    const id = row!.id;
    const base = new Date(Date.now() + 60 * 60 * 1000);
    const at = (minutes: number) => new Date(base.getTime() + minutes * 60_000);
    // A 12-minute session of beats every 30 s...
    for (let s = 0; s <= 24; s++) await recordHeartbeat(database.db, id, chapter.slug, new Date(at(0).getTime() + s * 30_000));
    // ...a page left alone for 20 minutes adds only one minute...
    await recordHeartbeat(database.db, id, chapter.slug, at(32));
    // ...and after 40 minutes away, a new session.
    await recordHeartbeat(database.db, id, chapter.slug, at(80));
    await recordHeartbeat(database.db, id, chapter.slug, at(80.5));

    const stats = await readingStats(database.db, id, at(81));
    expect(stats.sessions).toBe(3);
    // sessions: 0 s (the API beat), 12 min + 1 min, 30 s: average 4.5 min
    expect(stats.averageMinutes).toBe(Math.round((0 + 13 * 60 + 30) / 3 / 60));
    // (1, or 2 when the run crosses midnight UTC)
    expect(stats.streakDays).toBeGreaterThanOrEqual(1);
    expect(stats.week[6]).toBe(true);

    const viaApi = (await (await api("/api/profile/stats", { headers: { cookie } })).json()) as { sessions: number };
    expect(viaApi.sessions).toBe(3);
  });
});
