/**
 * Restoring a backup, in one transaction: either the database holds exactly the backup's rows
 * and sequence positions afterwards, or nothing changed. It refuses a backup of another migration
 * level (its tables would not fit), and a database that holds any row unless `force` is given,
 * which then empties every table first.
 *
 * The rows are read from the file a batch at a time as they are inserted (issue 21: 6). A batch
 * PostgreSQL refuses is reported by table, file lines and the database's reason, never with its
 * rows: a backup holds password hashes, secrets and people's names and emails, and an error
 * message ends up in a terminal, a log or a bug report.
 */
import { sql } from "../db/orm.ts";
import type { Database } from "../db/types.ts";
import { appliedMigrations, listTables, rows, type Executor, type MigrationLevel } from "./catalog.ts";
import type { Backup, RowBatch } from "./backup-file.ts";

export class RestoreRefused extends Error {
  override name = "RestoreRefused";
}

/** PostgreSQL refused some of a backup's rows: which, and why, without their contents. */
export class RestoreFailed extends Error {
  override name = "RestoreFailed";
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

    const byName = new Map(backup.header.tables.map((t) => [t.name, t]));
    const names = new Set([...backup.header.tables.flatMap((t) => [t.name, ...t.columns])]);
    const done = new Map<string, number>();
    // Batches of a few thousand rows keep each statement's JSON parameter to a few megabytes.
    for await (const batch of backup.batches()) {
      const table = byName.get(batch.table)!;
      const columns = sql.join(table.columns.map((c) => sql.identifier(c)), sql`, `);
      const target = sql`${sql.identifier("public")}.${sql.identifier(table.name)}`;
      const before = done.get(table.name) ?? 0;
      done.set(table.name, before + batch.rows.length);
      try {
        // PostgreSQL turns each JSON row back into the table's own types (times, jsonb, arrays,
        // uuids...); OVERRIDING SYSTEM VALUE lets identity columns keep their backed-up ids.
        await run.execute(sql`insert into ${target} (${columns}) overriding system value
          select ${columns} from json_populate_recordset(null::${target}, ${`[${batch.rows.join(",")}]`}::json)`);
      } catch (error) {
        throw refused(batch, before, table.rows, error, names);
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

/**
 * The error for a batch PostgreSQL refused. The driver's own error quotes the statement's
 * parameter, which is the rows themselves, and PostgreSQL's detail quotes a key's value: neither
 * is kept. What is told: the table, the rows' place (file lines when known), and PostgreSQL's
 * message with every quoted value left out but the names of tables, columns and the constraint.
 */
function refused(batch: RowBatch, before: number, total: number, error: unknown, names: Set<string>): RestoreFailed {
  const rows = batch.rows.length === 1 ? `row ${before + 1}` : `rows ${before + 1}-${before + batch.rows.length}`;
  const lines = batch.firstLine ? `, lines ${batch.firstLine}-${batch.firstLine + batch.rows.length - 1} of the file` : "";
  return new RestoreFailed(
    `The restore stopped at ${batch.table}, ${rows} of ${total}${lines}: ${databaseReason(error, names)}. ` +
      "Nothing was changed: the database is as it was before the restore.",
  );
}

/** PostgreSQL's reason for refusing, without any value it quotes. */
export function databaseReason(error: unknown, names: Set<string>): string {
  let cause = error as { code?: unknown; message?: unknown; constraint?: unknown; cause?: unknown } | undefined;
  // The driver wraps PostgreSQL's error (drizzle's "Failed query: ... params: ..."): find the innermost with a code.
  for (let depth = 0; cause && depth < 5 && typeof cause.code !== "string" && cause.cause; depth++) cause = cause.cause as typeof cause;
  const code = typeof cause?.code === "string" && /^[0-9A-Z]{5}$/.test(cause.code) ? cause.code : null;
  if (!code || typeof cause?.message !== "string") return "the database refused the rows (no reason given)";
  const keep = new Set(names);
  if (typeof cause.constraint === "string") keep.add(cause.constraint);
  const message = cause.message
    .split("\n")[0]!
    .slice(0, 300)
    .replace(/"((?:[^"]|"")*)"/g, (quoted, inner: string) => (keep.has(inner) ? quoted : "(a value)"));
  return `${message} (PostgreSQL error ${code})`;
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
