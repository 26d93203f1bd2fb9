/**
 * The Readers tab (issue 23): its figures from a known set of heartbeats, its CSV, and erasing one
 * code's reading; on PGlite, and on PostgreSQL through pg and Neon.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "../../src/server/db/orm.ts";
import { chapters } from "../../src/server/db/schema.ts";
import type { Level } from "../../src/lib/levels.ts";
import { recordHeartbeat } from "../../src/server/reading/activity.ts";
import { issueAccessCode } from "../../src/server/repositories/access-codes.ts";
import { apiClient, type Api } from "../support/api.ts";
import { adminLogin, asAdmin } from "../support/admin.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";
import { createChapter, createSubsection } from "../support/factories.ts";

interface Report {
  codes: Array<Record<string, unknown> & { login: string }>;
  chapters: Array<Record<string, unknown> & { slug: string }>;
  retention: { readingDays: number; readingTotalsDays: number };
}

describe.each(databaseTargets())("the Readers tab on $name", (target) => {
  let database: TestDatabase;
  let api: Api;
  let cookie: string;
  const logins: Record<"a" | "b" | "c" | "d", string> = { a: "", b: "", c: "", d: "" };
  const slugs: Record<"op1" | "op2" | "ar1" | "mm1", string> = { op1: "", op2: "", ar1: "", mm1: "" };
  const sections: Record<string, string> = {};

  beforeAll(async () => {
    database = await target.open();
    api = await apiClient(database);
    ({ cookie } = await adminLogin(api, database.db));
    const { db } = database;
    const op1 = await createChapter(db, { level: "Operator", title: "First open", order: 1 });
    const op2 = await createChapter(db, { level: "Operator", title: "Second open", order: 2 });
    const ar1 = await createChapter(db, { level: "Architect", title: "=Architect one", order: 1 });
    const mm1 = await createChapter(db, { level: "Mastermind", title: "Mastermind one", order: 1 });
    Object.assign(slugs, { op1: op1.slug, op2: op2.slug, ar1: ar1.slug, mm1: mm1.slug });
    for (const [key, chapter, order] of [["p1", op1, 1], ["p2", op1, 2], ["a1", ar1, 1], ["a2", ar1, 2], ["a3", ar1, 3]] as const) {
      sections[key] = (await createSubsection(db, chapter.id, { order, title: `Part ${key}` })).slug;
    }
    const code = async (level: Level) => issueAccessCode(db, { level });
    const [a, b, c, d] = [await code("Architect"), await code("Architect"), await code("Mastermind"), await code("Architect")];
    Object.assign(logins, { a: a.login, b: b.login, c: c.login, d: d.login });
    const ids = Object.fromEntries(
      await Promise.all(
        Object.entries(logins).map(async ([key, login]) => [key, (await db.query.accessCodes.findFirst({ where: (t, { eq }) => eq(t.login, login) }))!.id] as const),
      ),
    ) as Record<"a" | "b" | "c", number>;

    const t0 = new Date("2026-11-20T10:00:00Z").getTime();
    const beat = (who: "a" | "b" | "c", level: Level, seconds: number, slug: string, section?: string) =>
      recordHeartbeat(db, { accessCodeId: ids[who], level }, { slug, section }, new Date(t0 + seconds * 1000));
    // A: the first open chapter to its end (60 s, finished), the next day an Architect chapter (30 s).
    await beat("a", "Architect", 0, op1.slug, sections.p1);
    await beat("a", "Architect", 30, op1.slug, sections.p1);
    await beat("a", "Architect", 60, op1.slug, sections.p2);
    await beat("a", "Architect", 86_400, ar1.slug, sections.a1);
    await beat("a", "Architect", 86_430, ar1.slug, sections.a1);
    // B: 30 s of the first chapter, then the second (no subsections: finished once opened), 60 s.
    await beat("b", "Architect", 0, op1.slug, sections.p1);
    await beat("b", "Architect", 30, op1.slug, sections.p1);
    await beat("b", "Architect", 120, op2.slug);
    // C (Mastermind): the Architect chapter's last part, 60 s.
    await beat("c", "Mastermind", 0, ar1.slug, sections.a3);
    await beat("c", "Mastermind", 30, ar1.slug, sections.a3);
    await beat("c", "Mastermind", 60, ar1.slug, sections.a3);
  });
  afterAll(() => database?.dispose());

  const report = async () => {
    const response = await api("/api/admin/readers", asAdmin(cookie));
    expect(response.status).toBe(200);
    return (await response.json()) as Report;
  };

  it("answers per code: level, last visit, chapters opened and finished, time read and where it stands", async () => {
    const { codes, retention } = await report();
    const byLogin = Object.fromEntries(codes.map((code) => [code.login, code]));
    expect(byLogin[logins.a]).toEqual({
      login: logins.a,
      level: "Architect",
      active: true,
      lastVisit: "2026-11-21T10:00:30.000Z",
      opened: 2,
      finished: 1,
      finishedInLevel: 0,
      chaptersInLevel: 1,
      seconds: 90,
      place: { slug: slugs.ar1, title: "=Architect one", level: "Architect", position: 1, of: 1, sectionNumber: 1, sectionTitle: "Part a1" },
    });
    expect(byLogin[logins.b]).toMatchObject({ opened: 2, finished: 1, seconds: 90, place: { slug: slugs.op2, position: 2, of: 2, sectionNumber: null } });
    expect(byLogin[logins.c]).toMatchObject({ level: "Mastermind", opened: 1, finished: 1, finishedInLevel: 0, chaptersInLevel: 1, seconds: 60, place: { sectionNumber: 3 } });
    expect(byLogin[logins.d]).toMatchObject({ lastVisit: null, opened: 0, finished: 0, seconds: 0, place: null });
    expect(retention).toEqual({ readingDays: 90, readingTotalsDays: 730 });
  });

  it("answers per chapter, by level in reading order: members who opened and finished it, and the median time", async () => {
    const { chapters: list } = await report();
    const mine = list.filter((chapter) => Object.values(slugs).includes(chapter.slug));
    expect(mine.map((c) => [c.slug, c.level, c.position, c.opened, c.finished, c.medianSeconds])).toEqual([
      [slugs.op1, "Operator", 1, 2, 1, 45],
      [slugs.op2, "Operator", 2, 1, 1, 60],
      [slugs.ar1, "Architect", 1, 2, 1, 45],
      [slugs.mm1, "Mastermind", 1, 0, 0, null],
    ]);
  });

  it("downloads either table as CSV, of one level or all, and refuses what it does not know", async () => {
    const codes = await api("/api/admin/readers.csv?of=codes&level=Architect", asAdmin(cookie));
    expect(codes.status).toBe(200);
    expect(codes.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(codes.headers.get("content-disposition")).toMatch(/^attachment; filename="readers-codes-architect-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = (await codes.text()).split("\r\n");
    expect(lines[0]).toBe(
      "access code,level,active,last visit,chapters opened,chapters finished,finished in its level,chapters in its level,minutes read,where: chapter,where: level,where: chapter number,where: subsection number,where: subsection",
    );
    expect(lines).toContain(`${logins.a},Architect,true,2026-11-21T10:00:30.000Z,2,1,0,1,2,'=Architect one,Architect,00,1,Part a1`);
    expect(lines).toContain(`${logins.d},Architect,true,,0,0,0,1,0,,,,,`);
    expect(lines.some((line) => line.startsWith(logins.c))).toBe(false);

    const chaptersCsv = await (await api("/api/admin/readers.csv?of=chapters&level=Operator", asAdmin(cookie))).text();
    expect(chaptersCsv).toBe(
      "chapter,level,number,members opened,members finished,median minutes read\r\nFirst open,Operator,00,2,1,1\r\nSecond open,Operator,01,1,1,1\r\n",
    );
    expect((await api("/api/admin/readers.csv?of=everything", asAdmin(cookie))).status).toBe(400);
    expect((await api("/api/admin/readers.csv?level=Reader", asAdmin(cookie))).status).toBe(400);
    expect((await api("/api/admin/readers")).status).toBe(401);
    expect((await api("/api/admin/readers.csv")).status).toBe(401);
  });

  it("leaves a deleted chapter's reading out of the figures", async () => {
    await database.db.update(chapters).set({ deletedAt: new Date() }).where(eq(chapters.slug, slugs.op2));
    const { codes, chapters: list } = await report();
    expect(codes.find((code) => code.login === logins.b)).toMatchObject({ opened: 1, finished: 0, seconds: 30, place: null });
    expect(list.map((chapter) => chapter.slug)).not.toContain(slugs.op2);
    await database.db.update(chapters).set({ deletedAt: null }).where(eq(chapters.slug, slugs.op2));
  });

  it("names a member's subsection only while it is in the chapter of their place", async () => {
    const { subsections } = await import("../../src/server/db/schema.ts");
    const [part] = await database.db.select().from(subsections).where(eq(subsections.slug, sections.a1!));
    const elsewhere = await createChapter(database.db, { level: "Mastermind", title: "Somewhere else", order: 5 });
    await database.db.update(subsections).set({ chapterId: elsewhere.id }).where(eq(subsections.id, part!.id));
    try {
      const { codes } = await report();
      expect(codes.find((code) => code.login === logins.a)).toMatchObject({ place: { slug: slugs.ar1, sectionNumber: null, sectionTitle: null } });
    } finally {
      await database.db.update(subsections).set({ chapterId: part!.chapterId }).where(eq(subsections.id, part!.id));
    }
  });

  it("erases one code's reading in one action: its sessions, daily totals and place, and nobody else's", async () => {
    expect((await api(`/api/admin/access-codes/${logins.a}/reading`, { method: "DELETE" })).status).toBe(401);
    const erased = await api(`/api/admin/access-codes/${logins.a}/reading`, asAdmin(cookie, "DELETE"));
    expect(erased.status).toBe(200);
    // Two sessions (a day apart), two daily rows, one place.
    expect(await erased.json()).toEqual({ login: logins.a, erased: 5 });
    const { codes } = await report();
    expect(codes.find((code) => code.login === logins.a)).toMatchObject({ lastVisit: null, opened: 0, finished: 0, seconds: 0, place: null });
    expect(codes.find((code) => code.login === logins.c)).toMatchObject({ opened: 1, seconds: 60 });
    expect((await api(`/api/admin/access-codes/${logins.a}/reading`, asAdmin(cookie, "DELETE"))).status).toBe(200);
    expect((await api("/api/admin/access-codes/Nobody0000/reading", asAdmin(cookie, "DELETE"))).status).toBe(404);
  });
});
