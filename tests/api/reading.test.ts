/**
 * Members' reading (issue 23): heartbeats counted, throttled and refused; the place kept for any
 * device; daily totals; the profile's figures. On PGlite, and on PostgreSQL through pg and Neon.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "../../src/server/db/orm.ts";
import { HEARTBEAT_LIMIT } from "../../src/server/reading/activity.ts";
import { accessCodes, readingDays, readingPlaces, readingSessions } from "../../src/server/db/schema.ts";
import type { Database } from "../../src/server/db/client.ts";
import { readingStats, recordHeartbeat } from "../../src/server/reading/activity.ts";
import { apiClient, type Api } from "../support/api.ts";
import { cookieOf, jsonPost, loginAs } from "../support/auth.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";
import { createChapter, createSubsection } from "../support/factories.ts";

/** Everything recorded for one code: its sessions, its daily rows and its place. */
async function recorded(db: Database, accessCodeId: number) {
  const [sessions, days, places] = await Promise.all([
    db.select().from(readingSessions).where(eq(readingSessions.accessCodeId, accessCodeId)),
    db.select().from(readingDays).where(eq(readingDays.accessCodeId, accessCodeId)),
    db.select().from(readingPlaces).where(eq(readingPlaces.accessCodeId, accessCodeId)),
  ]);
  return { sessions, days, places };
}

async function codeId(db: Database, login: string): Promise<number> {
  const [row] = await db.select({ id: accessCodes.id }).from(accessCodes).where(eq(accessCodes.login, login));
  return row!.id;
}

describe.each(databaseTargets())("members' reading on $name", (target) => {
  let database: TestDatabase;
  let api: Api;
  beforeAll(async () => {
    database = await target.open();
    api = await apiClient(database);
  });
  afterAll(() => database?.dispose());

  it("gives a new member honest zeros and no place, and refuses anonymous callers", async () => {
    const { cookie } = await loginAs(api, database.db, "Architect");
    const stats = await api("/api/profile/stats", { headers: { cookie } });
    expect(await stats.json()).toEqual({ streakDays: 0, week: Array(7).fill(false), sessions: 0, averageMinutes: 0 });
    expect(await (await api("/api/reading/place", { headers: { cookie } })).json()).toEqual({ place: null });
    expect((await api("/api/profile/stats")).status).toBe(401);
    expect((await api("/api/reading/place")).status).toBe(401);
    expect((await api("/api/reading/heartbeat", jsonPost({ slug: "x" }))).status).toBe(401);
  });

  it("counts time into sessions and daily rows: a gap over 30 minutes starts a session; a beat adds at most a minute", async () => {
    const { cookie, code } = await loginAs(api, database.db, "Architect");
    const chapter = await createChapter(database.db);
    const beat = await api("/api/reading/heartbeat", jsonPost({ slug: chapter.slug }, { cookie }));
    expect(beat.status).toBe(204);

    const id = await codeId(database.db, code.login);
    const member = { accessCodeId: id, level: "Architect" as const };
    const base = new Date(Date.now() + 60 * 60 * 1000);
    const at = (minutes: number) => new Date(base.getTime() + minutes * 60_000);
    // A 12-minute session of beats every 30 s...
    for (let s = 0; s <= 24; s++) expect(await recordHeartbeat(database.db, member, { slug: chapter.slug }, new Date(at(0).getTime() + s * 30_000))).toBe("counted");
    // ...a page left alone for 20 minutes adds only one minute...
    await recordHeartbeat(database.db, member, { slug: chapter.slug }, at(32));
    // ...and after 40 minutes away, a new session.
    await recordHeartbeat(database.db, member, { slug: chapter.slug }, at(80));
    await recordHeartbeat(database.db, member, { slug: chapter.slug }, at(80.5));

    const stats = await readingStats(database.db, id, at(81));
    expect(stats.sessions).toBe(3);
    // sessions: 0 s (the API beat), 12 min + 1 min, 30 s: average 4.5 min
    expect(stats.averageMinutes).toBe(Math.round((0 + 13 * 60 + 30) / 3 / 60));
    expect(stats.streakDays).toBeGreaterThanOrEqual(1);
    expect(stats.week[6]).toBe(true);

    // The daily rows hold the same seconds: one row per day, never one per heartbeat.
    const { days } = await recorded(database.db, id);
    expect(days.reduce((sum, day) => sum + day.seconds, 0)).toBe(13 * 60 + 30);
    expect(days.length).toBeLessThanOrEqual(3); // today, and the next day or two when `base` crosses midnight UTC
    const viaApi = (await (await api("/api/profile/stats", { headers: { cookie } })).json()) as { sessions: number };
    expect(viaApi.sessions).toBe(3);
  });

  it("counts a flood of heartbeats at most once per 15 seconds, even sent at once, and still keeps the place", async () => {
    const { cookie, code } = await loginAs(api, database.db, "Architect");
    const chapter = await createChapter(database.db);
    const first = await createSubsection(database.db, chapter.id, { order: 1 });
    const second = await createSubsection(database.db, chapter.id, { order: 2 });
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => api("/api/reading/heartbeat", jsonPost({ slug: chapter.slug, section: i === 11 ? second.slug : first.slug }, { cookie }))),
    );
    // 204: counted; 202: the place kept, nothing counted.
    expect(answers.map((answer) => answer.status).sort()).toEqual([...Array(11).fill(202), 204]);
    const id = await codeId(database.db, code.login);
    const { sessions, days, places } = await recorded(database.db, id);
    expect(sessions).toHaveLength(1);
    expect(days).toHaveLength(1);
    expect(places).toHaveLength(1);

    // 14 s later: not counted, adds nothing; 15 s after the counted one: counted, with its seconds.
    const member = { accessCodeId: id, level: "Architect" as const };
    const countedAt = places[0]!.countedAt;
    expect(await recordHeartbeat(database.db, member, { slug: chapter.slug, section: second.slug }, new Date(countedAt.getTime() + 14_000))).toBe("throttled");
    const kept = await recorded(database.db, id);
    expect(kept.sessions[0]!.seconds).toBe(0);
    expect(kept.places[0]!.subsectionId).toBe(second.id);
    expect(await recordHeartbeat(database.db, member, { slug: chapter.slug, section: second.slug }, new Date(countedAt.getTime() + 15_000))).toBe("counted");
    const after = await recorded(database.db, id);
    expect(after.sessions[0]!.seconds).toBe(15);
    expect(after.days.reduce((sum, day) => sum + day.seconds, 0)).toBe(15);
  });

  it("writes the place only when it moved or the throttle passed, and refuses a flood from one code (429) without writing", async () => {
    const { cookie, code } = await loginAs(api, database.db, "Architect");
    const chapter = await createChapter(database.db);
    const [first, second] = [await createSubsection(database.db, chapter.id, { order: 1 }), await createSubsection(database.db, chapter.id, { order: 2 })];
    const send = (section: string) => api("/api/reading/heartbeat", jsonPost({ slug: chapter.slug, section }, { cookie }));
    const id = await codeId(database.db, code.login);
    // A row's xmin is the transaction that last wrote it: unchanged means not written.
    const version = async (table: "reading_places" | "rate_limit_counters", where: string) =>
      ((await database.db.execute(sql.raw(`SELECT xmin::text AS v FROM ${table} WHERE ${where}`))) as unknown as { rows: Array<{ v: string }> }).rows[0]?.v;
    const place = () => version("reading_places", `access_code_id = ${id}`);
    const counter = () => version("rate_limit_counters", `bucket = '${HEARTBEAT_LIMIT.bucket}' AND key = '${id}'`);

    expect((await send(first.slug)).status).toBe(204);
    const written = await place();
    for (let i = 0; i < 3; i++) expect((await send(first.slug)).status).toBe(202);
    expect(await place(), "a throttled heartbeat at the same place rewrote it").toBe(written);
    expect((await send(second.slug)).status).toBe(202);
    expect(await place(), "a move within the throttle is kept").not.toBe(written);
    expect((await recorded(database.db, id)).places[0]!.subsectionId).toBe(second.id);

    // A burst of 200 at once: the limit's worth answered, the rest refused with Retry-After.
    const burst = await Promise.all(Array.from({ length: 200 }, () => send(second.slug)));
    const statuses = burst.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 429)).toHaveLength(200 - (HEARTBEAT_LIMIT.max - 5));
    expect(statuses.filter((status) => status !== 429).every((status) => status === 202)).toBe(true);
    const refused = burst.find((answer) => answer.status === 429)!;
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("rate_limited");
    // Past the limit, nothing more is written: neither the counter nor the place.
    const [counterAfter, placeAfter] = [await counter(), await place()];
    for (let i = 0; i < 20; i++) expect((await send(first.slug)).status).toBe(429);
    expect(await counter()).toBe(counterAfter);
    expect(await place()).toBe(placeAfter);
    expect((await recorded(database.db, id)).sessions).toHaveLength(1);
  });

  it("never refuses an honest member: three devices, five minutes of heartbeats and a page turn or tab switch a minute each", async () => {
    const { cookie, code } = await loginAs(api, database.db, "Mastermind");
    const devices = [cookie];
    for (let i = 0; i < 2; i++) devices.push(cookieOf(await api("/api/auth/validate", jsonPost({ login: code.login, password: code.password }))));
    const chapter = await createChapter(database.db);
    const perDevice = (5 * 60) / 30 + 5 * 2; // every 30 s, and hidden then shown once a minute
    const answers = await Promise.all(devices.flatMap((device) => Array.from({ length: perDevice }, () => api("/api/reading/heartbeat", jsonPost({ slug: chapter.slug }, { cookie: device })))));
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(0);
  });

  it("refuses a chapter the member's level does not open (403) and a forged chapter or subsection (404), recording nothing", async () => {
    const { cookie, code } = await loginAs(api, database.db, "Architect");
    const mastermind = await createChapter(database.db, { level: "Mastermind" });
    const open = await createChapter(database.db, { level: "Operator" });
    const other = await createChapter(database.db, { level: "Operator" });
    const othersPart = await createSubsection(database.db, other.id);
    const draft = await createChapter(database.db, { status: "draft" });
    const deleted = await createChapter(database.db, { deletedAt: new Date() });
    const deletedPart = await createSubsection(database.db, open.id, { deletedAt: new Date() });
    const send = (body: unknown) => api("/api/reading/heartbeat", jsonPost(body, { cookie }));

    const refused = await send({ slug: mastermind.slug });
    expect(refused.status).toBe(403);
    for (const body of [
      { slug: "no-such-chapter" },
      { slug: draft.slug },
      { slug: deleted.slug },
      { slug: open.slug, section: "no-such-part" },
      { slug: open.slug, section: othersPart.slug },
      { slug: open.slug, section: deletedPart.slug },
    ]) {
      const answer = await send(body);
      expect(answer.status, JSON.stringify(body)).toBe(404);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("not_found");
    }
    for (const body of [{}, { slug: "" }, { slug: open.slug, section: "" }, { slug: 5 }]) expect((await send(body)).status, JSON.stringify(body)).toBe(400);
    const nothing = await recorded(database.db, await codeId(database.db, code.login));
    expect(nothing).toEqual({ sessions: [], days: [], places: [] });
  });

  it("marks a chapter finished when the member reaches its last subsection, even on a throttled heartbeat", async () => {
    const { cookie, code } = await loginAs(api, database.db, "Architect");
    const chapter = await createChapter(database.db, { level: "Architect" });
    const parts = [];
    for (let i = 1; i <= 3; i++) parts.push(await createSubsection(database.db, chapter.id, { order: i }));
    const send = (section?: string) => api("/api/reading/heartbeat", jsonPost({ slug: chapter.slug, section }, { cookie }));
    expect((await send(parts[1]!.slug)).status).toBe(204);
    const id = await codeId(database.db, code.login);
    expect((await recorded(database.db, id)).days.map((day) => day.finished)).toEqual([false]);
    // Within 15 s: throttled, but the last subsection still marks the chapter finished.
    expect((await send(parts[2]!.slug)).status).toBe(202);
    expect((await recorded(database.db, id)).days.map((day) => day.finished)).toEqual([true]);

    // A chapter without subsections is finished once opened.
    const bare = await createChapter(database.db, { level: "Operator" });
    await recordHeartbeat(database.db, { accessCodeId: id, level: "Architect" }, { slug: bare.slug }, new Date(Date.now() + 60_000));
    const bareDay = (await recorded(database.db, id)).days.find((day) => day.chapterId === bare.id);
    expect(bareDay?.finished).toBe(true);
  });

  it("keeps the member's place for any device: the chapter, the subsection and its number; none once the chapter is gone", async () => {
    const { cookie, code } = await loginAs(api, database.db, "Architect");
    const chapter = await createChapter(database.db, { level: "Architect", title: "Where I was" });
    await createSubsection(database.db, chapter.id, { order: 1 });
    const second = await createSubsection(database.db, chapter.id, { order: 2, title: "The second part" });
    await api("/api/reading/heartbeat", jsonPost({ slug: chapter.slug, section: second.slug }, { cookie }));

    // Another device: a second sign-in with the same code.
    const again = await api("/api/auth/validate", jsonPost({ login: code.login, password: code.password }));
    const elsewhere = again.headers.getSetCookie()[0]!.split(";")[0]!;
    const answer = (await (await api("/api/reading/place", { headers: { cookie: elsewhere } })).json()) as { place: Record<string, unknown> };
    expect(answer.place).toMatchObject({
      slug: chapter.slug,
      title: "Where I was",
      level: "Architect",
      section: second.slug,
      sectionTitle: "The second part",
      sectionNumber: 2,
    });

    // A subsection removed since leaves the chapter's top; a chapter removed leaves no place.
    const { subsections, chapters } = await import("../../src/server/db/schema.ts");
    await database.db.update(subsections).set({ deletedAt: new Date() }).where(eq(subsections.id, second.id));
    expect(((await (await api("/api/reading/place", { headers: { cookie: elsewhere } })).json()) as { place: Record<string, unknown> }).place).toMatchObject({
      slug: chapter.slug,
      section: null,
      sectionNumber: null,
    });
    await database.db.update(chapters).set({ deletedAt: new Date() }).where(eq(chapters.id, chapter.id));
    expect(await (await api("/api/reading/place", { headers: { cookie: elsewhere } })).json()).toEqual({ place: null });
  });

  it("never names a passage the operator has since moved above the member's level: the place keeps only its chapter's top", async () => {
    const { cookie } = await loginAs(api, database.db, "Architect");
    const chapter = await createChapter(database.db, { level: "Architect" });
    const part = await createSubsection(database.db, chapter.id, { order: 1, title: "Moved upstairs" });
    expect((await api("/api/reading/heartbeat", jsonPost({ slug: chapter.slug, section: part.slug }, { cookie }))).status).toBe(204);
    const place = async () => ((await (await api("/api/reading/place", { headers: { cookie } })).json()) as { place: Record<string, unknown> | null }).place;
    expect(await place()).toMatchObject({ slug: chapter.slug, section: part.slug, sectionTitle: "Moved upstairs" });

    // The operator moves the subsection into a Mastermind chapter (or a draft one): its title and
    // anchor are no longer the member's to see.
    const { subsections } = await import("../../src/server/db/schema.ts");
    for (const target of [await createChapter(database.db, { level: "Mastermind" }), await createChapter(database.db, { level: "Architect", status: "draft" })]) {
      await database.db.update(subsections).set({ chapterId: target.id }).where(eq(subsections.id, part.id));
      const answer = JSON.stringify(await place());
      expect(answer).not.toContain("Moved upstairs");
      expect(answer).not.toContain(part.slug);
      expect(await place()).toMatchObject({ slug: chapter.slug, section: null, sectionTitle: null, sectionNumber: null });
    }
  });
});
