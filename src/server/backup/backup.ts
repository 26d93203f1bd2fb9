/**
 * Taking a backup: every row of every table, every sequence's position and the migration level,
 * read in one read-only transaction with a single snapshot (REPEATABLE READ), so the file is one
 * consistent moment of the database even while the site keeps answering.
 */
import { sql } from "../db/orm.ts";
import type { Database, Driver } from "../db/types.ts";
import { appliedMigrations, listSequences, listTables, readSequence, rows, type Executor } from "./catalog.ts";
import { BACKUP_FORMAT, BACKUP_VERSION, writeBackupFile, type Backup } from "./backup-file.ts";

export interface BackupSummary {
  file: string;
  bytes: number;
  tables: Array<{ name: string; rows: number }>;
  migration: string | null;
}

/** Reads the whole database into a Backup (without writing it anywhere). */
export async function takeBackup(db: Database, driver: Driver, now = new Date()): Promise<Backup> {
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
    const data = new Map<string, string[]>();
    for (const table of tables) {
      const order = table.primaryKey.length > 0 ? sql.join(table.primaryKey.map((c) => sql`t.${sql.identifier(c)}`), sql`, `) : sql`1`;
      const found = await rows<{ row: string }>(
        run,
        sql`select row_to_json(t)::text as row from ${sql.identifier("public")}.${sql.identifier(table.name)} t order by ${order}`,
      );
      data.set(table.name, found.map((r) => r.row));
    }
    const sequences = [];
    for (const name of await listSequences(run)) sequences.push(await readSequence(run, name));
    return {
      header: {
        format: BACKUP_FORMAT,
        version: BACKUP_VERSION,
        createdAt: now.toISOString(),
        driver,
        migrations,
        tables: tables.map((t) => ({ name: t.name, columns: t.columns, rows: data.get(t.name)!.length })),
        sequences,
      },
      rows: data,
    } satisfies Backup;
  });
}

/** Writes a backup of the database to `file` (gzip when it ends in .gz). */
export async function backupDatabase(db: Database, driver: Driver, file: string): Promise<BackupSummary> {
  const backup = await takeBackup(db, driver);
  const bytes = writeBackupFile(file, backup);
  return {
    file,
    bytes,
    tables: backup.header.tables.map((t) => ({ name: t.name, rows: t.rows })),
    migration: backup.header.migrations.at(-1)?.tag ?? null,
  };
}
