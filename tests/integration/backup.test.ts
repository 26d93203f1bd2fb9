/**
 * Backups (issue 14: 5): a backup restored into a fresh database gives back every row of every
 * table and every sequence's position, on PGlite, PostgreSQL (pg) and Neon's driver, and from
 * PGlite into PostgreSQL. A restore refuses a non-empty database unless forced, a backup of
 * another migration level, and a damaged file; a failed restore leaves nothing behind.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChapter } from "../../src/server/admin/chapters.ts";
import { takeBackup } from "../../src/server/backup/backup.ts";
import { BackupFileError, readBackupFile, writeBackupFile, type Backup } from "../../src/server/backup/backup-file.ts";
import { inReferenceOrder } from "../../src/server/backup/catalog.ts";
import { restoreBackup, RestoreRefused } from "../../src/server/backup/restore.ts";
import { sql } from "../../src/server/db/orm.ts";
import { issueAccessCode } from "../../src/server/repositories/access-codes.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";
import { dumpEveryTable, FILLED_TABLES, fillEveryTable, sequencePositions } from "../support/every-table.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-backup-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const targets = databaseTargets();

/** The PGlite source's backup (uncompressed), with its rows and sequences: for the tests that follow. */
const fromPglite = { file: path.join(dir, "pglite.jsonl"), dump: {} as Record<string, string[]>, sequences: {} as Record<string, string> };

describe.each(targets)("backup and restore on $name", (target) => {
  let source: TestDatabase;
  let fresh: TestDatabase;
  let file: string;
  let expected: Record<string, string[]>;

  beforeAll(async () => {
    [source, fresh] = await Promise.all([target.open(), target.open()]);
    await fillEveryTable(source.db);
    file = path.join(dir, `${target.name}.jsonl.gz`);
    const backup = await takeBackup(source.db, source.driver);
    writeBackupFile(file, backup);
    expected = await dumpEveryTable(source.db);
    if (target.name === "pglite") {
      writeBackupFile(fromPglite.file, backup);
      Object.assign(fromPglite, { dump: expected, sequences: await sequencePositions(source.db) });
    }
  });
  afterAll(async () => {
    await Promise.all([source?.dispose(), fresh?.dispose()]);
  });

  it("gives back every row of every table and every sequence's position", async () => {
    for (const table of FILLED_TABLES) expect(expected[table]?.length, table).toBeGreaterThan(0);
    const summary = await restoreBackup(fresh.db, readBackupFile(file));
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
    const backup = readBackupFile(file);
    const held = await dumpEveryTable(fresh.db);
    await expect(restoreBackup(fresh.db, backup)).rejects.toThrow(/The database is not empty \(.*chapters: \d+ rows.*--force/);
    expect(await dumpEveryTable(fresh.db)).toEqual(held);

    // A subsection of a chapter the backup lacks: the foreign key refuses it, after every other
    // table was emptied and filled. The transaction leaves the database as it was.
    const broken = readBackupFile(file);
    const parts = broken.rows.get("subsections")!;
    broken.rows.set("subsections", [...parts.slice(0, -1), parts.at(-1)!.replace(/"chapter_id":\d+/, '"chapter_id":999999')]);
    await expect(restoreBackup(fresh.db, broken, { force: true })).rejects.toThrow();
    expect(await dumpEveryTable(fresh.db)).toEqual(held);

    const summary = await restoreBackup(fresh.db, backup, { force: true });
    expect(summary.replaced).toContain("chapters");
    expect(await dumpEveryTable(fresh.db)).toEqual(expected);
  });

  it("refuses a backup of an older or a newer migration level, naming both", async () => {
    const backup = readBackupFile(file);
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
    const backup = readBackupFile(file);
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
      await restoreBackup(postgres.db, readBackupFile(fromPglite.file));
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
    return () => readBackupFile(file);
  };

  it("is refused, naming the file, when it is cut short, foreign or altered", () => {
    const lines = fs.readFileSync(fromPglite.file, "utf8").trimEnd().split("\n");
    expect(damaged("cut.jsonl", lines.slice(0, -3).join("\n"))).toThrow(BackupFileError);
    expect(damaged("cut.jsonl", lines.slice(0, -3).join("\n"))).toThrow(/cut\.jsonl: ends early/);
    expect(damaged("foreign.jsonl", '{"hello":"world"}\n')).toThrow(/foreign\.jsonl: is not a backup made by `npm run backup`/);
    expect(damaged("empty.jsonl", "")).toThrow(/is not a backup/);
    const garbled = [...lines];
    garbled[3] = "{not json";
    expect(damaged("garbled.jsonl", garbled.join("\n"))).toThrow(/garbled\.jsonl: line 4 \(a row of .*\) is not a JSON object/);
    expect(damaged("extra.jsonl", [...lines, "{}"].join("\n"))).toThrow(/1 lines after the end marker/);
    expect(() => readBackupFile(path.join(dir, "missing.jsonl"))).toThrow(/missing\.jsonl: cannot be read \(ENOENT\)/);
    expect(damaged("gz.jsonl.gz", Buffer.from([0x1f, 0x8b, 1, 2, 3]))).toThrow(/is a damaged gzip file/);
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
