/**
 * Restoring a backup, in one transaction: either the database holds exactly the backup's rows
 * and sequence positions afterwards, or nothing changed. It refuses a backup of another migration
 * level (its tables would not fit), and a database that holds any row unless `force` is given,
 * which then empties every table first.
 */
import { sql } from "../db/orm.ts";
import type { Database } from "../db/types.ts";
import { appliedMigrations, listTables, rows, type Executor, type MigrationLevel } from "./catalog.ts";
import type { Backup } from "./backup-file.ts";

export class RestoreRefused extends Error {
  override name = "RestoreRefused";
}

export interface RestoreOptions {
  /** Replace what the database holds. */
  force?: boolean;
}

export interface RestoreSummary {
  tables: Array<{ name: string; rows: number }>;
  /** Tables that held rows and were emptied first (with force). */
  replaced: string[];
}

/** Rows per INSERT: a few thousand keep each statement's JSON parameter to a few megabytes. */
const BATCH_ROWS = 2000;
const BATCH_BYTES = 4 * 1024 * 1024;

export async function restoreBackup(db: Database, backup: Backup, { force = false }: RestoreOptions = {}): Promise<RestoreSummary> {
  return db.transaction(async (tx) => {
    const run = tx as unknown as Executor;
    // Two restores at once run one after the other: the second then finds the first's rows.
    await run.execute(sql`select pg_advisory_xact_lock(hashtext('system-book: restore'))`);
    await run.execute(sql`set local timezone = 'UTC'`);
    assertSameLevel(backup.header.migrations, await appliedMigrations(run));
    const tables = await listTables(run);
    assertSameTables(backup, tables.map((t) => ({ name: t.name, columns: t.columns })));

    const occupied: Array<{ name: string; rows: number }> = [];
    for (const table of tables) {
      const [row] = await rows<{ n: string | number }>(run, sql`select count(*)::int as n from ${sql.identifier("public")}.${sql.identifier(table.name)}`);
      if (Number(row!.n) > 0) occupied.push({ name: table.name, rows: Number(row!.n) });
    }
    if (occupied.length > 0 && !force) {
      throw new RestoreRefused(
        `The database is not empty (${occupied.map((t) => `${t.name}: ${t.rows} ${t.rows === 1 ? "row" : "rows"}`).join(", ")}). ` +
          "A restore replaces everything in it: run it again with --force to do that, or restore into an empty database.",
      );
    }
    if (occupied.length > 0) {
      await run.execute(sql`truncate ${sql.join(tables.map((t) => sql`${sql.identifier("public")}.${sql.identifier(t.name)}`), sql`, `)}`);
    }

    for (const table of backup.header.tables) {
      const lines = backup.rows.get(table.name) ?? [];
      const columns = sql.join(table.columns.map((c) => sql.identifier(c)), sql`, `);
      const target = sql`${sql.identifier("public")}.${sql.identifier(table.name)}`;
      for (const batch of batches(lines)) {
        // PostgreSQL turns each JSON row back into the table's own types (times, jsonb, arrays,
        // uuids...); OVERRIDING SYSTEM VALUE lets identity columns keep their backed-up ids.
        await run.execute(sql`insert into ${target} (${columns}) overriding system value
          select ${columns} from json_populate_recordset(null::${target}, ${`[${batch.join(",")}]`}::json)`);
      }
    }
    for (const sequence of backup.header.sequences) {
      await run.execute(
        sql`select setval(${`public.${quoteIdent(sequence.name)}`}::regclass, ${sequence.lastValue}::bigint, ${sequence.isCalled})`,
      );
    }
    return {
      tables: backup.header.tables.map((t) => ({ name: t.name, rows: t.rows })),
      replaced: occupied.map((t) => t.name),
    };
  });
}

function* batches(lines: string[]): Generator<string[]> {
  let batch: string[] = [];
  let bytes = 0;
  for (const line of lines) {
    batch.push(line);
    bytes += line.length;
    if (batch.length >= BATCH_ROWS || bytes >= BATCH_BYTES) {
      yield batch;
      batch = [];
      bytes = 0;
    }
  }
  if (batch.length > 0) yield batch;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

const describe = (level: MigrationLevel[]) => level.at(-1)?.tag ?? "no migration";

/** The backup must come from a database with exactly the migrations this one has. */
export function assertSameLevel(backup: MigrationLevel[], database: MigrationLevel[]): void {
  const theirs = backup.map((m) => m.when);
  const ours = new Set(database.map((m) => m.when));
  if (theirs.length === ours.size && theirs.every((when) => ours.has(when))) return;
  const unknownToUs = backup.filter((m) => !ours.has(m.when));
  if (unknownToUs.length > 0) {
    throw new RestoreRefused(
      `This backup was made at migration ${describe(backup)}, which this program does not have (this database is at ${describe(database)}). ` +
        "Restore it with the version of the program that made it, or a newer one.",
    );
  }
  throw new RestoreRefused(
    `This backup was made at migration ${describe(backup)}, older than this database's ${describe(database)}, so its tables do not fit. ` +
      "Restore it with the version of the program that made it (into an empty database), then start this version: it migrates the data.",
  );
}

function assertSameTables(backup: Backup, database: Array<{ name: string; columns: string[] }>): void {
  const ours = new Map(database.map((t) => [t.name, t.columns.join(",")]));
  const theirs = new Map(backup.header.tables.map((t) => [t.name, t.columns.join(",")]));
  const differ = [...new Set([...ours.keys(), ...theirs.keys()])].filter((name) => ours.get(name) !== theirs.get(name));
  if (differ.length > 0) {
    throw new RestoreRefused(
      `The backup's tables do not match this database's (${differ.join(", ")}), although both are at migration ${describe(backup.header.migrations)}. ` +
        "Was the database changed by hand?",
    );
  }
}
