/**
 * The command-line tools, run as an operator would: `npm run codes -- ...` and `npm run admin -- ...`.
 * Each run is a process of its own (Node, then the database opened: seconds on a busy machine), so
 * runs that do not need each other's results go at once: the refusals of bad input (answered
 * before any database is opened), the tests on a database of their own, and the PostgreSQL test
 * beside the embedded database's.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScratchDatabase, testDatabaseUrl } from "../support/databases.ts";
import { projectRoot } from "../support/product-server.ts";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-cli-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** One run of a tool (on `dataDir` unless `env` says otherwise): its exit code and what it printed. */
function run(tool: "codes" | "admin", args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [path.join(projectRoot, `src/server/cli/${tool}.ts`), ...args], {
    cwd: projectRoot,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (status) => resolve({ status, stdout, stderr }));
  });
}

// Each run of a tool is a fresh process opening the database: seconds each on a loaded machine.
// (Concurrent: beside the PostgreSQL test below; its own tests say which of them go at once.)
describe("npm run codes", { timeout: 90_000, concurrent: true }, () => {
  it("issues a code with a generated login and a strong password, as JSON", { concurrent: false }, async () => {
    const { status, stdout, stderr } = await run("codes", ["create", "--level", "Architect", "--json"]);
    expect(status).toBe(0);
    // The first run makes the database: it says so, naming the folder (the server's DATA_DIR may differ).
    expect(stderr).toContain(`${dataDir} holds no database yet`);
    expect((await run("codes", ["list"])).stderr).not.toContain("holds no database yet");
    const code = JSON.parse(stdout) as { login: string; password: string; level: string };
    expect(code.level).toBe("Architect");
    expect(code.login).toMatch(/^Architect\d{4,6}$/);
    expect(code.password).toMatch(/^[A-Za-z2-9]{20}$/);
  });

  // Two tests at once, each on a database of its own: the first's, and a copy of it made before both.
  describe("on a database each", { concurrent: true }, () => {
    const copyDir = path.join(dataDir, "copy");
    beforeAll(() => {
      fs.cpSync(path.join(dataDir, "pglite"), path.join(copyDir, "pglite"), { recursive: true });
    });

    it("issues a code with a chosen login and password, lists, deactivates and reactivates it", async () => {
      const created = await run("codes", ["create", "--level", "Mastermind", "--login", "Mastermind0001", "--password", "a chosen password", "--json"]);
      expect(JSON.parse(created.stdout)).toEqual({ login: "Mastermind0001", password: "a chosen password", level: "Mastermind", expiresAt: null, maxSessions: 3 });

      const listed = JSON.parse((await run("codes", ["list", "--json"])).stdout) as Array<{ login: string; isActive: boolean; usedAt: string | null; password?: string }>;
      const mine = listed.find((c) => c.login === "Mastermind0001")!;
      expect(mine).toMatchObject({ isActive: true, usedAt: null });
      expect(mine).not.toHaveProperty("password");

      expect((await run("codes", ["deactivate", "Mastermind0001"])).stdout).toContain("Mastermind0001 is now inactive.");
      const after = JSON.parse((await run("codes", ["list", "--json"])).stdout) as Array<{ login: string; isActive: boolean }>;
      expect(after.find((c) => c.login === "Mastermind0001")!.isActive).toBe(false);
      expect((await run("codes", ["activate", "Mastermind0001"])).stdout).toContain("is now active");

      const reset = JSON.parse((await run("codes", ["reset-password", "Mastermind0001", "--json"])).stdout) as { password: string };
      expect(reset.password).not.toBe("a chosen password");
    });

    it("issues a code with an end date and a session cap, changes both, and ends its sessions (issue 14)", async () => {
      const codes = (args: string[]) => run("codes", args, { DATA_DIR: copyDir });
      const year = new Date().getUTCFullYear() + 1;
      // Refused before any database is opened: checked while the rest runs.
      const refusals = Promise.all([
        codes(["settings", "Limited0001", "--expires", "2020-01-01"]),
        codes(["create", "--level", "Architect", "--max-sessions", "0"]),
        codes(["create", "--level", "Architect", "--max-sessions", "three"]),
        codes(["settings", "Limited0001"]),
      ]);
      const created = await codes(["create", "--level", "Architect", "--login", "Limited0001", "--expires", `${year}-01-31`, "--max-sessions", "2", "--json"]);
      expect(created.status, created.stderr).toBe(0);
      expect(JSON.parse(created.stdout)).toMatchObject({ login: "Limited0001", expiresAt: `${year}-01-31T23:59:59.999Z`, maxSessions: 2 });

      const changed = await codes(["settings", "Limited0001", "--no-expiry", "--max-sessions", "5"]);
      expect(changed.stdout).toContain("Limited0001 never ends, at most 5 sessions at once.");
      const listed = JSON.parse((await codes(["list", "--json"])).stdout) as Array<{ login: string }>;
      expect(listed.find((c) => c.login === "Limited0001")).toMatchObject({ expiresAt: null, maxSessions: 5, activeSessions: 0, expired: false });
      expect((await codes(["end-sessions", "Limited0001"])).stdout).toContain("Ended 0 sessions of Limited0001");

      const [past, zero, three, nothing] = await refusals;
      expect(past.status).toBe(2);
      expect(past.stderr).toContain('--expires: End date must be in the future (got "2020-01-01").');
      expect(zero.status).toBe(2);
      expect(zero.stderr).toContain('--max-sessions: Session cap must be at least 1');
      expect(three.stderr).toContain("--max-sessions: Session cap must be a number");
      expect(nothing.stderr).toContain("settings needs --expires, --no-expiry or --max-sessions.");
    }, 90_000);
  });

  it("refuses bad input clearly, with a non-zero exit", { concurrent: false }, async () => {
    // Refused before any database is opened: all at once, while the two that look a code up run.
    const refusals = Promise.all([
      run("codes", ["create", "--level", "Wizard"]),
      run("codes", ["create", "--level", "Operator"]),
      run("codes", ["fly"]),
      run("codes", ["--bogus"]),
      run("codes", ["--help"]),
    ]);
    const taken = await run("codes", ["create", "--level", "Architect", "--login", "Mastermind0001"]);
    expect(taken.status).toBe(1);
    expect(taken.stderr).toContain('The access code "Mastermind0001" already exists.');
    const unknown = await run("codes", ["deactivate", "Nobody0000"]);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('No access code "Nobody0000".');

    const [level, open, fly, option, help] = await refusals;
    expect(level.status).toBe(2);
    expect(level.stderr).toContain("--level must be Architect or Mastermind (Operator is open to everyone and needs no code).");
    // As in the admin panel, no code is issued for the open level.
    expect(open.status).toBe(2);
    expect(open.stderr).toContain("Operator is open to everyone and needs no code");
    expect(fly.status).toBe(2);
    // An unknown option is said in one line with the usage, never as a stack trace; --help prints the usage.
    expect(option.status).toBe(2);
    expect(option.stderr).toContain("Unknown option '--bogus'");
    expect(option.stderr).toContain("Usage: npm run --silent codes -- <command>");
    expect(option.stderr).not.toMatch(/^\s+at /m);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("Usage: npm run --silent codes -- <command>");
  });
});

const baseUrl = testDatabaseUrl();

describe.skipIf(!baseUrl)("npm run codes against DATABASE_URL", { concurrent: true }, () => {
  it("works on PostgreSQL", async () => {
    const scratch = await createScratchDatabase(baseUrl!);
    try {
      const created = await run("codes", ["create", "--level", "Architect", "--json"], { DATABASE_URL: scratch.url });
      expect(created.status).toBe(0);
      const listed = JSON.parse((await run("codes", ["list", "--json"], { DATABASE_URL: scratch.url })).stdout) as Array<{ login: string }>;
      expect(listed.map((c) => c.login)).toEqual([JSON.parse(created.stdout).login]);
    } finally {
      await scratch.drop();
    }
  });
});
