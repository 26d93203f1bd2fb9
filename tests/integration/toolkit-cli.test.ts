/**
 * The operator's command-line tools of issue 14, run as an operator would: `npm run book`,
 * `npm run backup` and `npm run restore`, on the embedded database (DATA_DIR) and on PostgreSQL
 * (DATABASE_URL), a PGlite backup restored into PostgreSQL.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { defaultBookDir } from "../../src/server/content/book.ts";
import { createScratchDatabase, testDatabaseUrl } from "../support/databases.ts";
import { projectRoot } from "../support/product-server.ts";

// Each run starts Node and opens a database (the first run creates the embedded one): slow on a busy machine.
vi.setConfig({ testTimeout: 180_000 });

const work = fs.mkdtempSync(path.join(os.tmpdir(), "sb-toolkit-"));
const dataDir = path.join(work, "data");
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

function run(tool: "book" | "backup" | "restore", args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [path.join(projectRoot, `src/server/cli/${tool}.ts`), ...args], {
    cwd: projectRoot,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", ...env },
    encoding: "utf8",
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const exported = path.join(work, "exported");
const backupFile = path.join(work, "backup.jsonl.gz");

describe("on the embedded database", () => {
  it("imports a folder, exports it back byte for byte, and a dry run reports nothing to change", () => {
    const imported = run("book", ["import", defaultBookDir]);
    expect(imported.status, imported.stderr).toBe(0);
    expect(imported.stdout).toContain("Chapters: 9 created, 0 updated, 0 unchanged.");
    expect(imported.stdout).toContain("Subsections: 27 created");

    const exporting = run("book", ["export", exported]);
    expect(exporting.stdout).toContain(`Exported 9 chapters, 27 subsections and 4 photos to ${exported}.`);
    for (const file of fs.readdirSync(defaultBookDir, { recursive: true }).map(String).filter((f) => f.endsWith(".md"))) {
      expect(fs.readFileSync(path.join(exported, file), "utf8"), file).toBe(fs.readFileSync(path.join(defaultBookDir, file), "utf8"));
    }

    const dry = run("book", ["import", exported, "--dry-run"]);
    expect(dry.stdout).toContain("Dry run: nothing was written.\nChapters: 0 to create, 0 to update, 9 unchanged.");
  });

  it("backs up, and refuses to restore into the database that holds the rows", () => {
    const backup = run("backup", [backupFile]);
    expect(backup.status, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/Backup written to .*backup\.jsonl\.gz \([\d,]+ bytes, migration \d{4}_\w+\)\./);
    expect(backup.stdout).toMatch(/chapters\s+9\n/);
    const refused = run("restore", [backupFile]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/The database is not empty \(.*chapters: 9 rows, .*subsections: 27 rows.*run it again with --force/);
  });

  it("explains its usage and refuses bad arguments", () => {
    const missing = run("backup", []);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("Missing the backup file's name.");
    const unknown = run("book", ["frob"]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('Unknown command "frob".');
    const bad = run("book", ["import", path.join(work, "nowhere")]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(`${path.join(work, "nowhere")}: no such folder.`);
  });
});

const baseUrl = testDatabaseUrl();

describe.skipIf(!baseUrl)("on PostgreSQL (DATABASE_URL)", () => {
  it("restores the embedded database's backup, which then holds the same book", async () => {
    const scratch = await createScratchDatabase(baseUrl!);
    try {
      const restored = run("restore", [backupFile], { DATABASE_URL: scratch.url });
      expect(restored.status, restored.stderr).toBe(0);
      expect(restored.stdout).toMatch(/Restored \d+ rows in \d+ tables from .*backup\.jsonl\.gz/);
      const check = run("book", ["import", exported, "--dry-run", "--json"], { DATABASE_URL: scratch.url });
      const report = JSON.parse(check.stdout) as { chapters: Array<{ action: string }>; subsections: Array<{ action: string }>; notInFolder: string[] };
      expect(report.chapters).toHaveLength(9);
      expect([...report.chapters, ...report.subsections].every((item) => item.action === "unchanged")).toBe(true);
      expect(report.notInFolder).toEqual([]);
      const forced = run("restore", [backupFile, "--force"], { DATABASE_URL: scratch.url });
      expect(forced.status, forced.stderr).toBe(0);
      expect(forced.stdout).toContain("Replaced what the database held");
    } finally {
      await scratch.drop();
    }
  });
});
