/**
 * Taking a backup: every row of every table, every sequence's position and the migration level,
 * read in one read-only transaction with a single snapshot (REPEATABLE READ), so the file is one
 * consistent moment of the database even while the site keeps answering.
 *
 * The rows are streamed (issue 21: 6): each table is read through a cursor a batch at a time, and
 * each batch is written to the file before the next is fetched, so memory holds a batch of a few
 * megabytes, never the database. The header, which comes first in the file, counts each table's
 * rows: they are counted in the same snapshot before the rows are read.
 */
import { sql } from "../db/orm.ts";
import type { Database, Driver } from "../db/types.ts";
import { appliedMigrations, listSequences, listTables, readSequence, rows, type Executor, type TableInfo } from "./catalog.ts";
import { BACKUP_FORMAT, BACKUP_VERSION, writeBackupFile, type BackupHeader, type RowBatch } from "./backup-file.ts";

export interface BackupSummary {
  file: string;
  bytes: number;
  tables: Array<{ name: string; rows: number }>;
  migration: string | null;
}

/** The rows fetched at a time: enough for about BATCH_BYTES of JSON, between these bounds. */
const BATCH_BYTES = 1024 * 1024;
const MIN_BATCH_ROWS = 1;
const MAX_BATCH_ROWS = 5000;
const FIRST_BATCH_ROWS = 100;

/** Writes a backup of the database to `file` (gzip when it ends in .gz), streaming its rows. */
export async function backupDatabase(db: Database, driver: Driver, file: string, now = new Date()): Promise<BackupSummary> {
  return db.transaction(async (tx) => {
    const run = tx as unknown as Executor;
    await run.execute(sql`set transaction isolation level repeatable read, read only`);
    // Times are written in UTC whatever the server's zone, so two backups of one state match.
    await run.execute(sql`set local timezone = 'UTC'`);
    const migrations = await appliedMigrations(run);
    if (migrations.length === 0) {
      throw new Error("This database has never been migrated, so it holds nothing to back up. Check DATA_DIR or DATABASE_URL.");
    }
    const tables = await listTables(run);
    const counts: number[] = [];
    for (const table of tables) {
      const [row] = await rows<{ n: string | number }>(run, sql`select count(*)::bigint::text as n from ${tableName(table)}`);
      counts.push(Number(row!.n));
    }
    const sequences = [];
    for (const name of await listSequences(run)) sequences.push(await readSequence(run, name));
    const header: BackupHeader = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt: now.toISOString(),
      driver,
      migrations,
      tables: tables.map((t, i) => ({ name: t.name, columns: t.columns, rows: counts[i]! })),
      sequences,
    };
    const bytes = await writeBackupFile(file, header, tableRows(run, tables));
    return {
      file,
      bytes,
      tables: header.tables.map((t) => ({ name: t.name, rows: t.rows })),
      migration: migrations.at(-1)?.tag ?? null,
    };
  });
}

const tableName = (table: TableInfo) => sql`${sql.identifier("public")}.${sql.identifier(table.name)}`;

/** Every table's rows in primary-key order, a batch at a time, through a cursor of the snapshot. */
async function* tableRows(run: Executor, tables: TableInfo[]): AsyncGenerator<RowBatch> {
  let size = FIRST_BATCH_ROWS;
  for (const table of tables) {
    const order = table.primaryKey.length > 0 ? sql.join(table.primaryKey.map((c) => sql`t.${sql.identifier(c)}`), sql`, `) : sql`1`;
    await run.execute(sql`declare backup_rows no scroll cursor for select row_to_json(t)::text as row from ${tableName(table)} t order by ${order}`);
    for (;;) {
      const found = await rows<{ row: string }>(run, sql`fetch forward ${sql.raw(String(size))} from backup_rows`);
      if (found.length > 0) yield { table: table.name, rows: found.map((r) => r.row) };
      if (found.length < size) break;
      const bytes = found.reduce((sum, r) => sum + r.row.length, 0);
      size = Math.min(MAX_BATCH_ROWS, Math.max(MIN_BATCH_ROWS, Math.floor((BATCH_BYTES * found.length) / Math.max(bytes, 1))));
    }
    await run.execute(sql`close backup_rows`);
  }
}
