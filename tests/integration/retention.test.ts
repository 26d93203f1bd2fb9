/**
 * Retention (src/server/maintenance/retention.ts) with a clock the test moves: unfinished scans
 * after 30 days, deleted chapters and subsections 7 days after their restore window, photos no
 * subsection names 7 days after upload, a member's reading sessions after 90 days and their daily
 * totals after 730; everything still wanted stays.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, inArray } from "../../src/server/db/orm.ts";
import { accessCodes, assessmentSessions, chapters, contentRevisions, readingDays, readingSessions, subsections } from "../../src/server/db/schema.ts";
import { recordHeartbeat } from "../../src/server/reading/activity.ts";
import { runRetention } from "../../src/server/maintenance/retention.ts";
import { localPhotoStore } from "../../src/server/uploads/photo-store.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";

const DAY = 24 * 3600 * 1000;
const policy = { unfinishedScanDays: 30, deletedContentDays: 7, unusedPhotoDays: 7, readingDays: 90, readingTotalsDays: 730 };

describe.each(databaseTargets())("retention on $name", (target) => {
  let database: TestDatabase;
  const photoDir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-retention-"));
  const store = localPhotoStore(photoDir);

  beforeAll(async () => {
    database = await target.open();
  });
  afterAll(async () => {
    await database?.dispose();
    fs.rmSync(photoDir, { recursive: true, force: true });
  });

  it("removes what nobody needs any more, and only that", async () => {
    const { db } = database;
    const now = new Date("2027-03-01T12:00:00Z");
    const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY);

    const scans = await db
      .insert(assessmentSessions)
      .values([
        { startedAt: at(31) },
        { startedAt: at(29) },
        { startedAt: at(90), completed: "true", completedAt: at(90), name: "Kept", email: "kept@example.com", score: 40 },
      ])
      .returning({ id: assessmentSessions.id });

    const [gone, restorable, live] = await db
      .insert(chapters)
      .values([
        { slug: "retention-gone", title: "Gone", content: "x", order: 90, level: "Operator", deletedAt: at(8.5) },
        { slug: "retention-restorable", title: "Restorable", content: "x", order: 91, level: "Operator", deletedAt: at(0.5) },
        { slug: "retention-live", title: "Live", content: "x", order: 92, level: "Operator" },
      ])
      .returning({ id: chapters.id });
    const parts = await db
      .insert(subsections)
      .values([
        { chapterId: live!.id, slug: "old-deleted", title: "Old", content: "x", order: 0, deletedAt: at(9), photo: "/uploads/" + "a".repeat(32) + ".jpg" },
        { chapterId: live!.id, slug: "just-deleted", title: "New", content: "x", order: 1, deletedAt: at(2), photo: "/uploads/" + "b".repeat(32) + ".jpg" },
        { chapterId: live!.id, slug: "live-part", title: "Live", content: "x", order: 2, photo: "/uploads/" + "c".repeat(32) + ".jpg" },
      ])
      .returning({ id: subsections.id });

    // Photos: one a live subsection uses, one a restorable deleted one uses, one nobody uses (old),
    // one nobody uses yet (just uploaded), and the one only a purged subsection used.
    const photo = async (name: string, daysAgo: number) => {
      await store.put(name, new Uint8Array([1, 2, 3]));
      fs.utimesSync(path.join(photoDir, name), at(daysAgo), at(daysAgo));
    };
    await photo("c".repeat(32) + ".jpg", 40);
    await photo("b".repeat(32) + ".jpg", 40);
    await photo("d".repeat(32) + ".jpg", 8);
    await photo("e".repeat(32) + ".jpg", 1);
    await photo("a".repeat(32) + ".jpg", 40);

    const report = await runRetention(db, { now, policy, store });
    expect(report).toMatchObject({ unfinishedScans: 1, chapters: 1, subsections: 1, photos: 2 });

    const keptScans = await db.select({ id: assessmentSessions.id }).from(assessmentSessions).where(inArray(assessmentSessions.id, scans.map((s) => s.id)));
    expect(keptScans.map((s) => s.id).sort()).toEqual([scans[1]!.id, scans[2]!.id].sort());
    const keptChapters = await db.select({ id: chapters.id }).from(chapters).where(inArray(chapters.id, [gone!.id, restorable!.id, live!.id]));
    expect(keptChapters.map((c) => c.id).sort()).toEqual([restorable!.id, live!.id].sort());
    const keptParts = await db.select({ id: subsections.id }).from(subsections).where(eq(subsections.chapterId, live!.id));
    expect(keptParts.map((p) => p.id).sort()).toEqual([parts[1]!.id, parts[2]!.id].sort());
    expect((await store.list()).map((p) => p.name).sort()).toEqual(["b".repeat(32) + ".jpg", "c".repeat(32) + ".jpg", "e".repeat(32) + ".jpg"]);

    // A second run finds nothing more to do.
    expect(await runRetention(db, { now, policy, store })).toMatchObject({ unfinishedScans: 0, chapters: 0, subsections: 0, photos: 0, failed: [] });
  });

  it("keeps a member's reading sessions 90 days and their daily totals 730 days, the totals folded from the heartbeats", async () => {
    const { db } = database;
    const now = new Date("2027-03-01T12:00:00Z");
    const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * DAY);
    const [code] = await db.insert(accessCodes).values({ login: "RetentionReader1", password: "scrypt$x", level: "Architect" }).returning();
    const [chapter] = await db.insert(chapters).values({ slug: "retention-reading", title: "Read", content: "x", order: 93, level: "Operator" }).returning();
    const member = { accessCodeId: code!.id, level: "Architect" as const };
    // Three reading days: 800, 100 and 1 day ago, each two heartbeats 30 s apart.
    for (const daysAgo of [800, 100, 1]) {
      await recordHeartbeat(db, member, { slug: chapter!.slug }, at(daysAgo));
      await recordHeartbeat(db, member, { slug: chapter!.slug }, new Date(at(daysAgo).getTime() + 30_000));
    }
    const rows = async () => ({
      sessions: (await db.select().from(readingSessions).where(eq(readingSessions.accessCodeId, code!.id))).length,
      days: (await db.select().from(readingDays).where(eq(readingDays.accessCodeId, code!.id))).map((d) => `${d.day}:${d.seconds}`).sort(),
    });
    expect(await rows()).toEqual({ sessions: 3, days: ["2024-12-21:30", "2026-11-21:30", "2027-02-28:30"] });

    const report = await runRetention(db, { now, policy, store });
    expect(report).toMatchObject({ readingSessions: 2, readingDays: 1, failed: [] });
    expect(await rows()).toEqual({ sessions: 1, days: ["2026-11-21:30", "2027-02-28:30"] });
  });

  it("keeps a used photo's narrower copies with it, and removes an unused photo's with it", async () => {
    const { db } = database;
    const now = new Date("2027-09-01T12:00:00Z");
    const [used, unused] = ["1".repeat(32), "2".repeat(32)];
    const [chapter] = await db.insert(chapters).values({ slug: "retention-copies", title: "Copies", content: "x", order: 94 }).returning({ id: chapters.id });
    await db.insert(subsections).values({ chapterId: chapter!.id, slug: "sized", title: "Sized", content: "x", order: 0, photo: `/uploads/${used}_800x600.jpg` });
    const names = (photoId: string) => [`${photoId}_800x600.jpg`, `${photoId}_800x600-480.avif`, `${photoId}_800x600-480.webp`, `${photoId}_800x600-800.jpg`];
    for (const name of [...names(used), ...names(unused)]) {
      await store.put(name, new Uint8Array([1]));
      fs.utimesSync(path.join(photoDir, name), new Date("2027-01-01"), new Date("2027-01-01"));
    }
    await runRetention(db, { now, policy, store });
    const left = (await store.list()).map((p) => p.name);
    expect(left).toEqual(expect.arrayContaining(names(used)));
    for (const name of names(unused)) expect(left).not.toContain(name);
  });

  it("keeps a photo only a kept revision or a pending draft names (issue 14): restoring or publishing brings it back", async () => {
    const { db } = database;
    const now = new Date("2027-10-01T12:00:00Z");
    const [inRevision, inDraft, inNothing] = ["7".repeat(32) + ".jpg", "8".repeat(32) + ".jpg", "9".repeat(32) + ".jpg"];
    const [chapter] = await db.insert(chapters).values({ slug: "retention-revisions", title: "Revisions", content: "x", order: 95 }).returning({ id: chapters.id });
    const [part] = await db
      .insert(subsections)
      .values({ chapterId: chapter!.id, slug: "now-bare", title: "Bare", content: "x", order: 0, draft: { chapterId: chapter!.id, title: "Bare", content: "x", photo: `/uploads/${inDraft}` } })
      .returning({ id: subsections.id });
    await db.insert(contentRevisions).values({ subsectionId: part!.id, fields: { photo: `/uploads/${inRevision}` }, savedAt: now, replacedAt: now });
    for (const name of [inRevision, inDraft, inNothing]) {
      await store.put(name, new Uint8Array([1]));
      fs.utimesSync(path.join(photoDir, name), new Date("2027-01-01"), new Date("2027-01-01"));
    }
    expect((await runRetention(db, { now, policy, store })).failed).toEqual([]);
    const left = (await store.list()).map((p) => p.name);
    expect(left).toEqual(expect.arrayContaining([inRevision, inDraft]));
    expect(left).not.toContain(inNothing);
  });

  it("keeps a photo a subsection names by its full address, and runs every step when one fails", async () => {
    const { db } = database;
    const now = new Date("2027-06-01T12:00:00Z");
    const name = "f".repeat(32) + ".jpg";
    const [chapter] = await db.insert(chapters).values({ slug: "retention-full-url", title: "Full", content: "x", order: 93 }).returning({ id: chapters.id });
    await db.insert(subsections).values({ chapterId: chapter!.id, slug: "full-url", title: "Full", content: "x", order: 0, photo: `https://book.example/uploads/${name}` });
    await store.put(name, new Uint8Array([1]));
    fs.utimesSync(path.join(photoDir, name), new Date("2027-01-01"), new Date("2027-01-01"));
    expect((await runRetention(db, { now, policy, store })).failed).toEqual([]);
    expect((await store.list()).map((p) => p.name)).toContain(name);

    const [scan] = await db.insert(assessmentSessions).values({ startedAt: new Date("2027-01-01") }).returning({ id: assessmentSessions.id });
    const broken = { ...store, list: () => Promise.reject(new Error("the photo store is unreachable")) };
    const report = await runRetention(db, { now, policy, store: broken });
    expect(report.failed).toEqual(["unused photos: the photo store is unreachable"]);
    expect(report.unfinishedScans).toBe(1);
    expect(await db.select().from(assessmentSessions).where(eq(assessmentSessions.id, scan!.id))).toEqual([]);
  });
});
