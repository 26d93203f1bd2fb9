/**
 * Backups (issue 14: 5): a backup restored into a fresh database gives back every row of every
 * table and every sequence's position, on PGlite, PostgreSQL (pg) and Neon's driver, and from
 * PGlite into PostgreSQL. A restore refuses a non-empty database unless forced, a backup of
 * another migration level, and a damaged file; a failed restore leaves nothing behind.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChapter } from "../../src/server/admin/chapters.ts";
import { backupDatabase } from "../../src/server/backup/backup.ts";
import { BackupFileError, openBackupFile, type Backup, type BackupHeader } from "../../src/server/backup/backup-file.ts";
import { inReferenceOrder } from "../../src/server/backup/catalog.ts";
import { restoreBackup, RestoreFailed, RestoreRefused } from "../../src/server/backup/restore.ts";
import { openDatabase } from "../../src/server/db/client.ts";
import { sql } from "../../src/server/db/orm.ts";
import { issueAccessCode } from "../../src/server/repositories/access-codes.ts";
import { createScratchDatabase, databaseTargets, testDatabaseUrl, type TestDatabase } from "../support/databases.ts";
import { projectRoot } from "../support/product-server.ts";
import { dumpEveryTable, FILLED_TABLES, fillEveryTable, sequencePositions } from "../support/every-table.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-backup-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const targets = databaseTargets();
const baseUrl = testDatabaseUrl();

/** The PGlite source's backup (uncompressed), with its rows and sequences: for the tests that follow. */
const fromPglite = { file: path.join(dir, "pglite.jsonl"), dump: {} as Record<string, string[]>, sequences: {} as Record<string, string> };

/**
 * A copy of a backup file, uncompressed, with `change` made to one table's rows (the header's
 * counts kept): a file whose rows PostgreSQL will refuse.
 */
function alteredCopy(file: string, name: string, table: string, change: (rows: string[]) => void): string {
  const bytes = fs.readFileSync(file);
  const lines = (bytes[0] === 0x1f ? gunzipSync(bytes) : bytes).toString("utf8").trimEnd().split("\n");
  const header = JSON.parse(lines[0]!) as BackupHeader;
  let at = 1;
  for (const t of header.tables) {
    if (t.name === table) {
      const rows = lines.slice(at, at + t.rows);
      change(rows);
      lines.splice(at, t.rows, ...rows);
      break;
    }
    at += t.rows;
  }
  const copy = path.join(dir, name);
  fs.writeFileSync(copy, `${lines.join("\n")}\n`);
  return copy;
}

describe.each(targets)("backup and restore on $name", (target) => {
  let source: TestDatabase;
  let fresh: TestDatabase;
  let file: string;
  let expected: Record<string, string[]>;

  beforeAll(async () => {
    [source, fresh] = await Promise.all([target.open(), target.open()]);
    await fillEveryTable(source.db);
    file = path.join(dir, `${target.name}.jsonl.gz`);
    await backupDatabase(source.db, source.driver, file);
    expected = await dumpEveryTable(source.db);
    if (target.name === "pglite") {
      await backupDatabase(source.db, source.driver, fromPglite.file);
      Object.assign(fromPglite, { dump: expected, sequences: await sequencePositions(source.db) });
    }
  });
  afterAll(async () => {
    await Promise.all([source?.dispose(), fresh?.dispose()]);
  });

  it("gives back every row of every table and every sequence's position", async () => {
    for (const table of FILLED_TABLES) expect(expected[table]?.length, table).toBeGreaterThan(0);
    const summary = await restoreBackup(fresh.db, await openBackupFile(file));
    expect(summary.replaced).toEqual([]);
    expect(await dumpEveryTable(fresh.db)).toEqual(expected);
    expect(await sequencePositions(fresh.db)).toEqual(await sequencePositions(source.db));
    // The next insert after a restore takes the next id, as it would have in the source.
    const next = { slug: "next", title: "Next", content: "Next.", readingTime: 1, order: 9, level: "Operator" as const };
    const [after, before] = [await createChapter(fresh.db, next, { now: new Date(), by: null }), await createChapter(source.db, next, { now: new Date(), by: null })];
    expect(after.id).toBe(before.id);
    await issueAccessCode(fresh.db, { level: "Operator" });
  });

  it("refuses a database that holds rows; with --force replaces them in one transaction, or changes nothing", async () => {
    const backup = await openBackupFile(file);
    const held = await dumpEveryTable(fresh.db);
    await expect(restoreBackup(fresh.db, backup)).rejects.toThrow(/The database is not empty \(.*chapters: \d+ rows.*--force/);
    expect(await dumpEveryTable(fresh.db)).toEqual(held);

    // A subsection of a chapter the backup lacks: the foreign key refuses it, after every other
    // table was emptied and filled. The transaction leaves the database as it was.
    const broken = await openBackupFile(alteredCopy(file, `${target.name}-orphan.jsonl`, "subsections", (rows) => {
      rows[rows.length - 1] = rows.at(-1)!.replace(/"chapter_id":\d+/, '"chapter_id":999999');
    }));
    await expect(restoreBackup(fresh.db, broken, { force: true })).rejects.toThrow(
      /^The restore stopped at subsections, rows 1-3 of 3, lines \d+-\d+ of the file: insert or update on table "subsections" violates foreign key constraint "subsections_chapter_id_\w+" \(PostgreSQL error 23503\)\. Nothing was changed/,
    );
    expect(await dumpEveryTable(fresh.db)).toEqual(held);

    const summary = await restoreBackup(fresh.db, backup, { force: true });
    expect(summary.replaced).toContain("chapters");
    expect(await dumpEveryTable(fresh.db)).toEqual(expected);
  });

  it("never quotes a row in the error of a failed restore: neither a canary email beside a bad value, nor a value PostgreSQL quotes", async () => {
    const canary = "canary-7f3a@example.com";
    const held = await dumpEveryTable(fresh.db);
    const cases: Array<[string, (rows: string[]) => void]> = [
      // A bad time beside the canary: PostgreSQL refuses the batch that holds it.
      ["beside", (rows) => (rows[0] = rows[0]!.replace("reader@example.com", canary).replace(/"created_at":"[^"]*"/, '"created_at":"not a time"'))],
      // The canary is the very value PostgreSQL quotes in its message.
      ["quoted", (rows) => (rows[0] = rows[0]!.replace(/"created_at":"[^"]*"/, `"created_at":"${canary}"`))],
    ];
    for (const [name, change] of cases) {
      const backup = await openBackupFile(alteredCopy(file, `${target.name}-canary-${name}.jsonl`, "users", change));
      const error = await restoreBackup(fresh.db, backup, { force: true }).then(
        () => null,
        (e: unknown) => e as Error,
      );
      expect(error, name).toBeInstanceOf(RestoreFailed);
      expect(error!.message).toMatch(
        /^The restore stopped at users, row 1 of 1, lines (\d+)-\1 of the file: invalid input syntax for type timestamp with time zone: \(a value\) \(PostgreSQL error 22007\)\. Nothing was changed: the database is as it was before the restore\.$/,
      );
      // Nor anywhere else in the error (no cause holding the driver's message with the rows).
      expect(JSON.stringify(error, Object.getOwnPropertyNames(error)), name).not.toContain("canary");
      expect(error!.cause, name).toBeUndefined();
    }
    expect(await dumpEveryTable(fresh.db)).toEqual(held);
  });

  it("is readable by its owner only (0600), also when it replaces a file that was 0644", async () => {
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    for (const name of [`${target.name}-mode.jsonl`, `${target.name}-mode.jsonl.gz`]) {
      const out = path.join(dir, name);
      for (const older of [out, `${out}.partial`]) {
        fs.writeFileSync(older, "an older backup, or one cut short\n");
        fs.chmodSync(older, 0o644);
      }
      await backupDatabase(source.db, source.driver, out);
      expect(fs.statSync(out).mode & 0o777, name).toBe(0o600);
      expect(fs.existsSync(`${out}.partial`), name).toBe(false);
      expect((await openBackupFile(out)).header.tables.map((t) => t.name)).toContain("users");
    }
  });

  it("refuses a backup of an older or a newer migration level, naming both", async () => {
    const backup = await openBackupFile(file);
    const older: Backup = { ...backup, header: { ...backup.header, migrations: backup.header.migrations.slice(0, -1) } };
    await expect(restoreBackup(fresh.db, older, { force: true })).rejects.toThrow(
      new RegExp(`made at migration ${backup.header.migrations.at(-2)!.tag}, older than this database's ${backup.header.migrations.at(-1)!.tag}`),
    );
    const newer: Backup = { ...backup, header: { ...backup.header, migrations: [...backup.header.migrations, { tag: "9999_future", when: "4102444800000" }] } };
    await expect(restoreBackup(fresh.db, newer, { force: true })).rejects.toThrow(/made at migration 9999_future, which this program does not have/);
    expect(await dumpEveryTable(fresh.db)).toEqual(expected);
  });

  it.skipIf(target.name !== "pg")("lets one of two restores sent at once into an empty database through, and refuses the other", async () => {
    const tables = Object.keys(expected).map((name) => `"${name}"`).join(", ");
    await fresh.db.execute(sql.raw(`truncate ${tables}`));
    const backup = await openBackupFile(file);
    const results = await Promise.allSettled([restoreBackup(fresh.db, backup), restoreBackup(fresh.db, backup)]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect((results.find((r) => r.status === "rejected") as PromiseRejectedResult).reason).toBeInstanceOf(RestoreRefused);
    expect(await dumpEveryTable(fresh.db)).toEqual(expected);
  });
});

describe.skipIf(targets.length < 2)("a PGlite backup restored into PostgreSQL", () => {
  it("gives back every row and sequence", async () => {
    const postgres = await targets[1]!.open();
    try {
      await restoreBackup(postgres.db, await openBackupFile(fromPglite.file));
      expect(await dumpEveryTable(postgres.db)).toEqual(fromPglite.dump);
      expect(await sequencePositions(postgres.db)).toEqual(fromPglite.sequences);
    } finally {
      await postgres.dispose();
    }
  });
});

describe("the backup file", () => {
  const damaged = (name: string, text: string | Buffer) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return openBackupFile(file);
  };

  it("is refused, naming the file, when it is cut short, foreign or altered", async () => {
    const lines = fs.readFileSync(fromPglite.file, "utf8").trimEnd().split("\n");
    await expect(damaged("cut.jsonl", lines.slice(0, -3).join("\n"))).rejects.toThrow(BackupFileError);
    await expect(damaged("cut.jsonl", lines.slice(0, -3).join("\n"))).rejects.toThrow(/cut\.jsonl: ends early/);
    await expect(damaged("foreign.jsonl", '{"hello":"world"}\n')).rejects.toThrow(/foreign\.jsonl: is not a backup made by `npm run backup`/);
    await expect(damaged("empty.jsonl", "")).rejects.toThrow(/is not a backup/);
    const garbled = [...lines];
    garbled[3] = "{not json";
    await expect(damaged("garbled.jsonl", garbled.join("\n"))).rejects.toThrow(/garbled\.jsonl: line 4 \(a row of .*\) is not a JSON object/);
    await expect(damaged("extra.jsonl", [...lines, "{}"].join("\n"))).rejects.toThrow(/1 lines after the end marker/);
    await expect(damaged("no-end.jsonl", lines.slice(0, -1).join("\n"))).rejects.toThrow(new RegExp(`line ${lines.length} should be the end marker`));
    await expect(openBackupFile(path.join(dir, "missing.jsonl"))).rejects.toThrow(/missing\.jsonl: cannot be read \(ENOENT\)/);
    await expect(damaged("gz.jsonl.gz", Buffer.from([0x1f, 0x8b, 1, 2, 3]))).rejects.toThrow(/is a damaged gzip file/);
  });

  it("orders tables after the tables they refer to", () => {
    const order = inReferenceOrder(
      [{ name: "b" }, { name: "a" }, { name: "c" }, { name: "self" }],
      [
        { child: "a", parent: "c" },
        { child: "c", parent: "b" },
        { child: "self", parent: "self" },
      ],
    ).map((t) => t.name);
    expect(order).toEqual(["b", "c", "a", "self"]);
  });
});

/**
 * Issue 21: 6. A backup and a restore hold a batch of rows at a time, never the database: both run
 * as the operator runs them, in a process whose heap is capped far below the backup's size.
 */
describe("a backup larger than the process's heap", { timeout: 600_000 }, () => {
  const HEAP_MB = 48;
  /** About 32 KB of JSON per row: some 128 MB of backup, well over twice the heap. */
  const ROWS = 4000;
  const cli = (tool: "backup" | "restore", args: string[], env: Record<string, string>) => {
    const result = spawnSync(process.execPath, [`--max-old-space-size=${HEAP_MB}`, path.join(projectRoot, `src/server/cli/${tool}.ts`), ...args], {
      cwd: projectRoot,
      env: { ...process.env, DATABASE_URL: "", ...env },
      encoding: "utf8",
    });
    return { status: result.status, signal: result.signal, output: `${result.stdout}\n${result.stderr}`.slice(-2000) };
  };
  const fill = (db: TestDatabase["db"]) =>
    db.execute(sql`insert into users (email, first_name) select 'reader' || i || '@example.com', repeat(md5(i::text), 1000) from generate_series(1, ${ROWS}) i`);
  const fingerprint = async (db: TestDatabase["db"]) =>
    ((await db.execute(sql`select count(*)::int as n, sum(length(first_name))::text as chars, md5(string_agg(first_name, '' order by id)) as hash from users`)) as unknown as {
      rows: unknown[];
    }).rows[0];

  /** A database of one kind, its settings for a command, and how to open it again. */
  const kinds = [
    {
      name: "pglite",
      async make() {
        const dataDir = fs.mkdtempSync(path.join(dir, "big-pglite-"));
        const handle = await openDatabase({ driver: "pglite", dataDir });
        await handle.migrate();
        // Closed: an embedded database has one owner at a time, and the command is the next.
        await handle.close();
        return { env: { DATA_DIR: dataDir }, open: () => openDatabase({ driver: "pglite", dataDir }), drop: async () => {} };
      },
    },
    ...(baseUrl
      ? [
          {
            name: "pg",
            async make() {
              const scratch = await createScratchDatabase(baseUrl);
              const handle = await openDatabase({ driver: "pg", url: scratch.url });
              await handle.migrate();
              await handle.close();
              return { env: { DATABASE_URL: scratch.url }, open: () => openDatabase({ driver: "pg", url: scratch.url }), drop: () => scratch.drop() };
            },
          },
        ]
      : []),
  ];

  it.each(kinds)("backs up (and on PostgreSQL restores) on $name with a heap of 48 MB", async (kind) => {
    const [source, target] = [await kind.make(), kind.name === "pglite" ? null : await kind.make()];
    const file = path.join(dir, `big-${kind.name}.jsonl`);
    const within = async <T>(database: { open: typeof source.open }, work: (db: TestDatabase["db"]) => Promise<T>) => {
      const handle = await database.open();
      try {
        return await work(handle.db);
      } finally {
        await handle.close();
      }
    };
    try {
      const expected = await within(source, async (db) => {
        await fill(db);
        return fingerprint(db);
      });
      const backup = cli("backup", [file], source.env);
      expect(backup.status, backup.output).toBe(0);
      expect(fs.statSync(file).size).toBeGreaterThan(2.5 * HEAP_MB * 1024 * 1024);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);

      // The restore streams the same way; on PGlite a restore this size takes a minute, so on PostgreSQL only.
      if (kind.name === "pglite") return;
      const restore = cli("restore", [file], target!.env);
      expect(restore.status, restore.output).toBe(0);
      expect(await within(target!, fingerprint)).toEqual(expected);
    } finally {
      fs.rmSync(file, { force: true });
      await Promise.all([source.drop(), target?.drop()]);
    }
  });
});
