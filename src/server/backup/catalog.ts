/**
 * What a backup covers, read from the database's own catalog rather than from schema.ts: every
 * table of the `public` schema (parents before the tables whose foreign keys point at them), the
 * columns that can be written (not generated ones), the primary key, every sequence, and the
 * migration level drizzle recorded. A table added by a later migration is covered without any
 * change here.
 */
import fs from "node:fs";
import path from "node:path";
import { sql, type SQL } from "../db/orm.ts";
import { migrationsFolder } from "../db/client.ts";

/** Anything with drizzle's `execute` (a database or a transaction). */
export interface Executor {
  execute(query: SQL): Promise<unknown>;
}

/** Runs `query` and answers its rows (every driver answers `{ rows }`). */
export async function rows<T>(db: Executor, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as { rows: T[] }).rows;
}

export interface TableInfo {
  name: string;
  /** Writable columns (generated ones are left out), in table order. */
  columns: string[];
  /** Primary key columns, for a stable row order. */
  primaryKey: string[];
}

export interface MigrationLevel {
  /** The migration's name in the journal (src/server/db/migrations/meta/_journal.json), when known. */
  tag: string;
  /** The journal's `when`, which drizzle records as the applied migration's created_at. */
  when: string;
}

/**
 * Tables a backup leaves out: `content_version` counts the writes to the book (migration 0011) so
 * servers know their rendered pages are current; it is no data of its own, and a restore's own
 * writes move it on (a restored count could equal one a server already rendered under).
 */
export const NOT_BACKED_UP: ReadonlySet<string> = new Set(["content_version"]);

/** The tables of `public` a backup holds, each after every table it refers to. */
export async function listTables(db: Executor): Promise<TableInfo[]> {
  const tables = await rows<{ name: string }>(
    db,
    sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by c.relname`,
  );
  const columns = await rows<{ table: string; column: string; generated: string }>(
    db,
    sql`select c.relname as "table", a.attname as "column", a.attgenerated::text as generated
        from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped
        order by c.relname, a.attnum`,
  );
  const keys = await rows<{ table: string; column: string }>(
    db,
    sql`select c.relname as "table", a.attname as "column"
        from pg_index i join pg_class c on c.oid = i.indrelid join pg_namespace n on n.oid = c.relnamespace
        join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
        where n.nspname = 'public' and i.indisprimary order by c.relname, array_position(i.indkey, a.attnum)`,
  );
  const references = await rows<{ child: string; parent: string }>(
    db,
    sql`select child.relname as child, parent.relname as parent
        from pg_constraint k join pg_class child on child.oid = k.conrelid join pg_class parent on parent.oid = k.confrelid
        join pg_namespace n on n.oid = child.relnamespace
        where k.contype = 'f' and n.nspname = 'public'`,
  );
  const infos = new Map<string, TableInfo>(tables.filter(({ name }) => !NOT_BACKED_UP.has(name)).map(({ name }) => [name, { name, columns: [], primaryKey: [] }]));
  for (const c of columns) if (c.generated === "" || c.generated === null) infos.get(c.table)?.columns.push(c.column);
  for (const k of keys) infos.get(k.table)?.primaryKey.push(k.column);
  return inReferenceOrder([...infos.values()], references);
}

/**
 * Orders tables so that each comes after the tables it refers to (a table referring to itself,
 * or a cycle, keeps its alphabetical place: such rows would need their constraints deferred).
 */
export function inReferenceOrder<T extends { name: string }>(tables: T[], references: Array<{ child: string; parent: string }>): T[] {
  const parents = new Map<string, Set<string>>(tables.map((t) => [t.name, new Set()]));
  for (const { child, parent } of references) if (child !== parent) parents.get(child)?.add(parent);
  const ordered: T[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const byName = new Map(tables.map((t) => [t.name, t]));
  const visit = (name: string) => {
    if (placed.has(name) || visiting.has(name) || !byName.has(name)) return;
    visiting.add(name);
    for (const parent of [...parents.get(name)!].sort()) visit(parent);
    visiting.delete(name);
    placed.add(name);
    ordered.push(byName.get(name)!);
  };
  for (const table of [...tables].sort((a, b) => a.name.localeCompare(b.name))) visit(table.name);
  return ordered;
}

/** The sequences of `public` (serial and identity columns' among them). */
export async function listSequences(db: Executor): Promise<string[]> {
  const found = await rows<{ name: string }>(
    db,
    sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind = 'S' order by c.relname`,
  );
  return found.map((row) => row.name);
}

export interface SequenceState {
  name: string;
  /** As text: a bigint does not fit a JavaScript number. */
  lastValue: string;
  isCalled: boolean;
}

export async function readSequence(db: Executor, name: string): Promise<SequenceState> {
  const [row] = await rows<{ last_value: string; is_called: boolean | string }>(
    db,
    sql`select last_value::text as last_value, is_called from ${sql.identifier("public")}.${sql.identifier(name)}`,
  );
  return { name, lastValue: row!.last_value, isCalled: row!.is_called === true || row!.is_called === "t" || row!.is_called === "true" };
}

/** The migrations applied to this database, oldest first (none when it was never migrated). */
export async function appliedMigrations(db: Executor): Promise<MigrationLevel[]> {
  const [exists] = await rows<{ found: string | null }>(db, sql`select to_regclass('drizzle.__drizzle_migrations')::text as found`);
  if (!exists?.found) return [];
  const applied = await rows<{ when: string }>(
    db,
    sql`select created_at::text as "when" from drizzle.__drizzle_migrations order by created_at`,
  );
  const tags = journalTags();
  return applied.map(({ when }) => ({ when, tag: tags.get(when) ?? `unknown migration of ${new Date(Number(when)).toISOString()}` }));
}

/** The journal's tags by `when`: the names of the migrations this program knows. */
function journalTags(): Map<string, string> {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as {
    entries: Array<{ tag: string; when: number }>;
  };
  return new Map(journal.entries.map((entry) => [String(entry.when), entry.tag]));
}
