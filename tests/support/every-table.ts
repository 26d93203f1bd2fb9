/**
 * A database with rows in every table of schema.ts, with the awkward values a backup must carry
 * exactly: microsecond times, JSON, text arrays, uuids, nulls, quotes and unicode, deleted rows,
 * and sequences advanced past the highest id (rows inserted, then removed).
 */
import { randomUUID } from "node:crypto";
import type { Database } from "../../src/server/db/client.ts";
import { eq, sql } from "../../src/server/db/orm.ts";
import { NOT_BACKED_UP } from "../../src/server/backup/catalog.ts";
import {
  accessCodes,
  adminAccounts,
  adminSetupTokens,
  assessmentResponses,
  assessmentSessions,
  cachePurges,
  chapters,
  publishState,
  rateLimitCounters,
  readingDays,
  readingPlaces,
  readingSessions,
  sessions,
  siteIdentity,
  subsections,
  users,
} from "../../src/server/db/schema.ts";

/** The tables this fixture fills (a table added later is still backed up, but starts empty here). */
export const FILLED_TABLES = [
  "users",
  "access_codes",
  "admin_accounts",
  "sessions",
  "rate_limit_counters",
  "chapters",
  "subsections",
  "assessment_sessions",
  "assessment_responses",
  "reading_sessions",
  "reading_days",
  "reading_places",
  "admin_setup_tokens",
  "publish_state",
  "cache_purges",
  "site_identity",
];

export async function fillEveryTable(db: Database): Promise<void> {
  const at = (iso: string) => new Date(iso);
  const [user] = await db.insert(users).values({ email: "reader@example.com", firstName: "Zoë", lastName: "O'Brien" }).returning();
  const [code] = await db
    .insert(accessCodes)
    .values({ login: "Architect0042", password: "scrypt$fake$hash", level: "Architect", userId: user!.id, usedAt: at("2026-11-01T10:00:00.123Z") })
    .returning();
  await db.insert(accessCodes).values({ login: "Mastermind0007", password: "scrypt$other", level: "Mastermind", isActive: "false" });
  const [admin] = await db.insert(adminAccounts).values({ email: "op@example.com", passwordHash: "scrypt$admin" }).returning();
  await db.insert(sessions).values([
    { sid: "s-reader", sess: { level: "Architect", nested: { list: [1, 2.5, "três"] } }, expire: at("2026-12-24T00:00:00Z"), accessCodeId: code!.id },
    { sid: "s-admin", sess: {}, expire: at("2026-12-24T00:00:00Z"), adminId: admin!.id },
  ]);
  await db.insert(rateLimitCounters).values({ bucket: "login-ip", key: "2001:db8::/64", windowStart: at("2026-11-23T12:00:00Z"), count: 3 });

  const [first] = await db
    .insert(chapters)
    .values({ slug: "signal", title: 'Signal: "the first" — part #1', content: "## Heading\n\n> quoted\n\n- one\n- two\n", level: "Operator", order: 1 })
    .returning();
  const [locked] = await db.insert(chapters).values({ slug: "locked", title: "Locked", content: "Secret.", level: "Mastermind", order: 1, readingTime: 0 }).returning();
  const [gone] = await db.insert(chapters).values({ slug: "gone", title: "Gone", content: "Deleted.", order: 2, deletedAt: at("2026-11-22T08:00:00.654Z") }).returning();
  await db.insert(subsections).values([
    { chapterId: first!.id, slug: "a", title: "A", content: "Text of a.", photo: "/uploads/0123456789abcdef0123456789abcdef_1200x800.jpg", photoAlt: "A photo", order: 0 },
    { chapterId: locked!.id, slug: "b", title: "B", content: "Text of b.", photo: "https://example.com/b.png", order: 1 },
    { chapterId: gone!.id, slug: "c", title: "C", content: "Text of c.", order: 0, deletedAt: gone!.deletedAt },
  ]);
  // Microseconds, which a JavaScript Date cannot hold: they must survive the trip as they are.
  await db.execute(sql`update ${chapters} set created_at = '2026-11-01 10:00:00.123456+00' where ${chapters.id} = ${first!.id}`);
  // Advance a sequence past the highest id: the next id after a restore must be the next one here.
  const [temporary] = await db.insert(chapters).values({ slug: "temporary", title: "T", content: "T" }).returning();
  await db.delete(chapters).where(eq(chapters.id, temporary!.id));

  const scan = randomUUID();
  await db.insert(assessmentSessions).values([
    {
      id: scan,
      userId: user!.id,
      name: "Ana",
      email: "ana@example.com",
      completed: "true",
      score: 42,
      scoreBreakdown: { level: "Architect", totalScore: 42, categoryScores: { clarity: 10, drive: 12.5 } },
      startedAt: at("2026-11-20T09:00:00.000001Z"),
      completedAt: at("2026-11-20T09:07:00Z"),
    },
    { id: randomUUID(), name: null, email: null },
  ]);
  await db.insert(assessmentResponses).values([
    { sessionId: scan, questionNumber: 1, answer: "A" },
    { sessionId: scan, questionNumber: 15, answer: "D" },
  ]);
  await db.insert(readingSessions).values({
    accessCodeId: code!.id,
    chapterId: locked!.id,
    startedAt: at("2026-11-21T20:00:00Z"),
    lastSeenAt: at("2026-11-21T20:30:00Z"),
    seconds: 1800,
  });
  await db.insert(readingDays).values([
    { accessCodeId: code!.id, chapterId: locked!.id, day: "2026-11-21", seconds: 1800, finished: true, lastAt: at("2026-11-21T20:30:00.000001Z") },
    { accessCodeId: code!.id, chapterId: first!.id, day: "2026-11-22", seconds: 0, lastAt: at("2026-11-22T07:00:00Z") },
  ]);
  await db.insert(readingPlaces).values({
    accessCodeId: code!.id,
    chapterId: locked!.id,
    subsectionId: null,
    updatedAt: at("2026-11-21T20:30:00Z"),
    countedAt: at("2026-11-21T20:30:00Z"),
    counted: false,
  });
  await db.insert(adminSetupTokens).values({ tokenHash: "f".repeat(64), expiresAt: at("2026-11-25T00:00:00Z") });
  await db.insert(publishState).values({ id: 1, state: "live", siteStamp: "stamp-1", lastPublishedAt: at("2026-11-23T00:00:00Z") });
  await db.insert(cachePurges).values([{ tags: ["book"] }, { tags: ["book", "chapter:signal", 'with "quotes"'] }]);
  await db.insert(siteIdentity).values({ id: 1, productionDatabase: "db.example.com/neondb" });
}

/** Every row of every table (the catalog's, not a list), as PostgreSQL's JSON text, sorted. */
export async function dumpEveryTable(db: Database): Promise<Record<string, string[]>> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local timezone = 'UTC'`);
    const tables = ((await tx.execute(
      sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'r' order by 1`,
    )) as unknown as { rows: Array<{ name: string }> }).rows;
    const dump: Record<string, string[]> = {};
    // (What a backup leaves out on purpose, the content version, is no data to compare.)
    for (const { name } of tables.filter(({ name }) => !NOT_BACKED_UP.has(name))) {
      const rows = ((await tx.execute(sql`select row_to_json(t)::text as row from ${sql.identifier(name)} t`)) as unknown as { rows: Array<{ row: string }> }).rows;
      dump[name] = rows.map((r) => r.row).sort();
    }
    return dump;
  });
}

/** Every sequence's position. */
export async function sequencePositions(db: Database): Promise<Record<string, string>> {
  const names = ((await db.execute(
    sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'S' order by 1`,
  )) as unknown as { rows: Array<{ name: string }> }).rows;
  const positions: Record<string, string> = {};
  for (const { name } of names) {
    const [row] = ((await db.execute(sql`select last_value::text || '/' || is_called::text as at from ${sql.identifier(name)}`)) as unknown as {
      rows: Array<{ at: string }>;
    }).rows;
    positions[name] = row!.at;
  }
  return positions;
}
