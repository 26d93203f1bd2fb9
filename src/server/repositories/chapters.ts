/**
 * Reading chapters and subsections, as readers get them. Soft-deleted rows and drafts (issue 14)
 * never come back from these functions, and neither do the admin's bookkeeping columns (a pending
 * draft, who saved, a publishing schedule).
 */
import { createHash } from "node:crypto";
import { and, asc, eq, fillPlaceholders, getTableColumns, inArray, isNull, sql } from "../db/orm.ts";
import { namedStatement, type NamedStatement } from "../db/named-statements.ts";
import type { Level } from "../../lib/levels.ts";
import type { Database } from "../db/types.ts";
import { readerLevelOf } from "../auth/session.ts";
import { chapters, contentVersion, subsections, type ChapterRow, type SubsectionRow } from "../db/schema.ts";

/**
 * What the public chapter list shows: no content. `teaser` is the operator's optional teaser of a
 * locked chapter (null for an Operator chapter, whatever is stored).
 */
export type ChapterSummary = Pick<ChapterRow, "id" | "slug" | "title" | "level" | "order" | "readingTime" | "teaser">;
/** Columns only the admin panel sees. */
type AdminOnly = "deletedAt" | "status" | "updatedBy" | "draft" | "draftSavedAt" | "draftSavedBy" | "publishAt";
export type Chapter = Omit<ChapterRow, AdminOnly>;
export type Subsection = Omit<SubsectionRow, AdminOnly>;

const summaryColumns = {
  id: chapters.id,
  slug: chapters.slug,
  title: chapters.title,
  level: chapters.level,
  order: chapters.order,
  readingTime: chapters.readingTime,
  teaser: sql<string | null>`case when ${chapters.level} in ('Architect', 'Mastermind') then ${chapters.teaser} end`,
};

function readerColumns<T extends Record<string, unknown>>(columns: T): Omit<T, AdminOnly> {
  const { deletedAt: _d, status: _s, updatedBy: _u, draft: _dr, draftSavedAt: _da, draftSavedBy: _db, publishAt: _p, ...rest } = columns;
  return rest;
}
export const chapterColumns = readerColumns(getTableColumns(chapters));
export const subsectionColumns = readerColumns(getTableColumns(subsections));

/** Rows a reader may get: live (not deleted) and published. */
export const publicChapter = () => and(isNull(chapters.deletedAt), eq(chapters.status, "published"));
export const publicSubsection = () => and(isNull(subsections.deletedAt), eq(subsections.status, "published"));

/** Level rank for sorting: a chapter with no level counts as Operator. */
export const levelRank = sql`case coalesce(${chapters.level}, 'Operator') when 'Operator' then 0 when 'Architect' then 1 else 2 end`;

const MISSING_VERSION = "The content_version row is missing: run the migrations.";

/** The book's content version (migration 0011): every write to a chapter or a subsection moves it on, in the writing transaction. */
export async function readContentVersion(db: Database): Promise<number> {
  const [row] = await db.select({ version: contentVersion.version }).from(contentVersion).where(eq(contentVersion.id, 1));
  if (!row) throw new Error(MISSING_VERSION);
  return row.version;
}

/** Live chapters, by level (Operator first), then order, then id. */
export async function listChapters(db: Database, levels?: readonly Level[]): Promise<ChapterSummary[]> {
  return db
    .select(summaryColumns)
    .from(chapters)
    .where(and(publicChapter(), levels ? levelFilter(levels) : undefined))
    .orderBy(levelRank, asc(chapters.order), asc(chapters.id));
}

/** Live chapters with their content, for the given levels, in list order. */
export async function listChaptersWithContent(db: Database, levels: readonly Level[]): Promise<Chapter[]> {
  return db
    .select(chapterColumns)
    .from(chapters)
    .where(and(publicChapter(), levelFilter(levels)))
    .orderBy(levelRank, asc(chapters.order), asc(chapters.id));
}

export async function getChapterBySlug(db: Database, slug: string): Promise<Chapter | undefined> {
  const [row] = await db
    .select(chapterColumns)
    .from(chapters)
    .where(and(eq(chapters.slug, slug), publicChapter()));
  return row;
}

export async function getChapterById(db: Database, id: number): Promise<Chapter | undefined> {
  const [row] = await db
    .select(chapterColumns)
    .from(chapters)
    .where(and(eq(chapters.id, id), publicChapter()));
  return row;
}

/** Live subsections of a chapter, by order then id. */
export async function listSubsections(db: Database, chapterId: number): Promise<Subsection[]> {
  return db
    .select(subsectionColumns)
    .from(subsections)
    .where(and(eq(subsections.chapterId, chapterId), publicSubsection()))
    .orderBy(asc(subsections.order), asc(subsections.id));
}

/** Live subsections of several chapters at once, grouped by chapter id, each group in order. */
export async function listSubsectionsOf(
  db: Database,
  chapterIds: readonly number[],
): Promise<Map<number, Subsection[]>> {
  const groups = new Map<number, Subsection[]>(chapterIds.map((id) => [id, []]));
  if (chapterIds.length === 0) return groups;
  const rows = await db
    .select(subsectionColumns)
    .from(subsections)
    .where(and(inArray(subsections.chapterId, [...chapterIds]), publicSubsection()))
    .orderBy(asc(subsections.chapterId), asc(subsections.order), asc(subsections.id));
  for (const row of rows) groups.get(row.chapterId)?.push(row);
  return groups;
}

function levelFilter(levels: readonly Level[]) {
  const named = inArray(chapters.level, [...levels]);
  return levels.includes("Operator") ? sql`(${named} or ${chapters.level} is null)` : named;
}

/** Everything a chapter page shows, read by one statement (the page is a hot path). */
export interface ChapterPageData {
  chapter: Chapter;
  subsections: Array<Pick<Subsection, "id" | "slug" | "title" | "content" | "photo" | "photoAlt" | "order">>;
  /** The chapters of its level, in reading order (for Previous and Next). */
  levelChapters: Array<{ slug: string; title: string }>;
  /** The first Operator chapter's slug (the `transform` call to action's target), if any. */
  firstOperatorSlug: string | null;
}

/** What a chapter page is kept under (src/server/pages/render-cache.ts), read in one statement. */
export interface ChapterPageKey {
  /** The book's content version (migration 0011): it moves on with every write to the book. */
  version: number;
  /** The published chapter at the address, if there is one. */
  chapter: { id: number; level: string | null } | null;
  /** What `readerLevel` answered (the reader session's level), read in the same statement. */
  readerLevel: string | null;
}

/** What one request asks of the page key statement. */
interface PageKeyAsk {
  slug: string;
  sid: string | null;
  now: Date;
  resolve(key: ChapterPageKey): void;
  reject(error: unknown): void;
}

/**
 * Each database's page key statement, and the asks waiting for it. The asks that arrive in one
 * turn of the event loop go to the database together, in one statement (sent at the end of that
 * turn, so every ask is answered by a read made after it was asked: a sign-out or an ended code
 * is seen by the next request, as with one statement each). A function on Netlify serves one
 * request at a time, so there it is one ask a statement; a long-lived server under load saves a
 * round trip per request (issue 20: 7).
 * The statement is named (parsed and planned once per connection: a fifth of the cost of an
 * unnamed one on PostgreSQL), or unnamed once the database refused named statements (a pooler in
 * transaction mode that does not track them).
 */
interface PageKeyStatement {
  named: boolean;
  query: ReturnType<typeof pageKeyQuery>;
  prepared: ReturnType<ReturnType<typeof pageKeyQuery>["prepare"]>;
  /** The same statement kept by the driver itself, where drizzle's prepared one is parsed anew at every call (PGlite). */
  kept: { run: NamedStatement; params: unknown[] } | null;
  waiting: PageKeyAsk[];
}
const pageKeyStatements = new WeakMap<Database, PageKeyStatement>();

/** The most asks one statement carries (more wait for the next). */
const MAX_ASKS = 200;

function pageKeyQuery(db: Database) {
  // The asks, numbered: slug, session id and time, given as three arrays.
  const asks = sql`unnest(${sql.placeholder("slugs")}::text[], ${sql.placeholder("sids")}::text[], ${sql.placeholder("nows")}::timestamptz[])
    WITH ORDINALITY AS ask(slug, sid, now, n)`;
  // The columns' order is read by position where PGlite keeps the statement (readPageKeys).
  return db
    .select({
      n: sql<string | number>`ask.n`,
      version: contentVersion.version,
      id: chapters.id,
      level: chapters.level,
      readerLevel: readerLevelOf(sql`ask.sid`, sql`ask.now`),
    })
    .from(contentVersion)
    .crossJoin(asks)
    .leftJoin(chapters, and(eq(chapters.slug, sql`ask.slug`), isNull(chapters.deletedAt), eq(chapters.status, "published")))
    .where(eq(contentVersion.id, 1));
}

/**
 * The page key statement's name: its text's hash. Behind a pooler that keeps named statements
 * across its clients, two deploys (or two versions of this code) that say different things never
 * meet under one name.
 */
export function pageKeyStatementName(text: string): string {
  return `chapter_page_key_${createHash("sha256").update(text).digest("hex").slice(0, 16)}`;
}

/** PostgreSQL's duplicate_prepared_statement and invalid_sql_statement_name: what a pooler that loses named statements causes. */
const NAMED_STATEMENTS_LOST = new Set(["42P05", "26000"]);

/**
 * The page key of the chapter at `slug`, and the level of the live reader session `sid` names
 * (null without one) read in the same statement: one round trip, the session checked at `now`.
 */
export function getChapterPageKey(db: Database, slug: string, sid: string | null = null, now = new Date()): Promise<ChapterPageKey> {
  let statement = pageKeyStatements.get(db);
  if (!statement) {
    const query = pageKeyQuery(db);
    const { sql: text, params } = query.toSQL();
    const name = pageKeyStatementName(text);
    const run = namedStatement(db, name, text);
    statement = { named: true, query, prepared: query.prepare(name), kept: run && { run, params }, waiting: [] };
    pageKeyStatements.set(db, statement);
  }
  const { waiting } = statement;
  return new Promise((resolve, reject) => {
    if (waiting.push({ slug, sid, now, resolve, reject }) === 1) setImmediate(() => void askAll(statement));
  });
}

/** Sends the waiting asks, MAX_ASKS a statement, and answers each. */
async function askAll(statement: PageKeyStatement): Promise<void> {
  const asks = statement.waiting.splice(0);
  await Promise.all(
    Array.from({ length: Math.ceil(asks.length / MAX_ASKS) }, (_, i) => asks.slice(i * MAX_ASKS, (i + 1) * MAX_ASKS)).map(async (some) => {
      try {
        const rows = await readPageKeys(statement, some);
        if (rows.length === 0) throw new Error(MISSING_VERSION);
        for (const row of rows) {
          some[Number(row.n) - 1]!.resolve({
            version: Number(row.version),
            chapter: row.id === null ? null : { id: row.id, level: row.level },
            readerLevel: row.readerLevel,
          });
        }
      } catch (error) {
        for (const ask of some) ask.reject(error);
      }
    }),
  );
}

type PageKeyRow = Awaited<ReturnType<PageKeyStatement["prepared"]["execute"]>>[number];

async function readPageKeys(statement: PageKeyStatement, asks: PageKeyAsk[]): Promise<PageKeyRow[]> {
  // A placeholder's value goes to the driver as given: as the column would send it (PGlite reads a Date otherwise).
  const values = { slugs: asks.map((ask) => ask.slug), sids: asks.map((ask) => ask.sid), nows: asks.map((ask) => ask.now.toISOString()) };
  if (statement.kept) {
    const rows = await statement.kept.run(fillPlaceholders(statement.kept.params, values));
    return rows.map(([n, version, id, level, readerLevel]) => ({ n, version, id, level, readerLevel }) as PageKeyRow);
  }
  try {
    return statement.named ? await statement.prepared.execute(values) : await statement.query.execute(values);
  } catch (error) {
    const code = (error as { code?: unknown; cause?: { code?: unknown } }).code ?? (error as { cause?: { code?: unknown } }).cause?.code;
    if (!statement.named || !NAMED_STATEMENTS_LOST.has(String(code))) throw error;
    statement.named = false;
    return statement.query.execute(values);
  }
}

export async function getChapterPage(db: Database, slug: string): Promise<ChapterPageData | undefined> {
  const result = (await db.execute(sql`
    SELECT c.id, c.slug, c.title, c.content, c.reading_time, c."order", c.level, c.teaser, c.created_at, c.updated_at,
      (SELECT coalesce(json_agg(json_build_object('id', s.id, 'slug', s.slug, 'title', s.title, 'content', s.content,
          'photo', s.photo, 'photoAlt', s.photo_alt, 'order', s."order") ORDER BY s."order", s.id), '[]'::json)
        FROM ${subsections} s WHERE s.chapter_id = c.id AND s.deleted_at IS NULL AND s.status = 'published') AS parts,
      (SELECT coalesce(json_agg(json_build_object('slug', l.slug, 'title', l.title) ORDER BY l."order", l.id), '[]'::json)
        FROM ${chapters} l WHERE l.deleted_at IS NULL AND l.status = 'published' AND coalesce(l.level, 'Operator') = coalesce(c.level, 'Operator')) AS level_chapters,
      (SELECT o.slug FROM ${chapters} o WHERE o.deleted_at IS NULL AND o.status = 'published' AND coalesce(o.level, 'Operator') = 'Operator'
        ORDER BY o."order", o.id LIMIT 1) AS first_operator
    FROM ${chapters} c WHERE c.slug = ${slug} AND c.deleted_at IS NULL AND c.status = 'published'`)) as unknown as {
    rows: Array<{
      id: number;
      slug: string;
      title: string;
      content: string;
      reading_time: number;
      order: number;
      level: string | null;
      teaser: string | null;
      created_at: Date | string;
      updated_at: Date | string;
      parts: ChapterPageData["subsections"] | string;
      level_chapters: ChapterPageData["levelChapters"] | string;
      first_operator: string | null;
    }>;
  };
  const row = result.rows[0];
  if (!row) return undefined;
  // Drivers differ on json columns: parsed by pg and Neon, text in PGlite's raw results.
  const parsed = <T>(value: T | string): T => (typeof value === "string" ? (JSON.parse(value) as T) : value);
  return {
    chapter: {
      id: row.id,
      slug: row.slug,
      title: row.title,
      content: row.content,
      readingTime: row.reading_time,
      order: row.order,
      level: row.level,
      teaser: row.teaser,
      createdAt: new Date(row.created_at),
      updatedAt: new Date(row.updated_at),
    },
    subsections: parsed(row.parts),
    levelChapters: parsed(row.level_chapters),
    firstOperatorSlug: row.first_operator,
  };
}
