/** The command-line tools, run as an operator would: `npm run codes -- ...` and `npm run admin -- ...`. */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createScratchDatabase, testDatabaseUrl } from "../support/databases.ts";
import { projectRoot } from "../support/product-server.ts";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-cli-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function run(tool: "codes" | "admin", args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [path.join(projectRoot, `src/server/cli/${tool}.ts`), ...args], {
    cwd: projectRoot,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", ...env },
    encoding: "utf8",
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

// Each run of a tool is a fresh process opening the database: seconds each on a loaded machine.
describe("npm run codes", { timeout: 90_000 }, () => {
  it("issues a code with a generated login and a strong password, as JSON", () => {
    const { status, stdout, stderr } = run("codes", ["create", "--level", "Architect", "--json"]);
    expect(status).toBe(0);
    // The first run makes the database: it says so, naming the folder (the server's DATA_DIR may differ).
    expect(stderr).toContain(`${dataDir} holds no database yet`);
    expect(run("codes", ["list"]).stderr).not.toContain("holds no database yet");
    const code = JSON.parse(stdout) as { login: string; password: string; level: string };
    expect(code.level).toBe("Architect");
    expect(code.login).toMatch(/^Architect\d{4,6}$/);
    expect(code.password).toMatch(/^[A-Za-z2-9]{20}$/);
  });

  it("issues a code with a chosen login and password, lists, deactivates and reactivates it", () => {
    const created = run("codes", ["create", "--level", "Mastermind", "--login", "Mastermind0001", "--password", "a chosen password", "--json"]);
    expect(JSON.parse(created.stdout)).toEqual({ login: "Mastermind0001", password: "a chosen password", level: "Mastermind", expiresAt: null, maxSessions: 3 });

    const listed = JSON.parse(run("codes", ["list", "--json"]).stdout) as Array<{ login: string; isActive: boolean; usedAt: string | null; password?: string }>;
    const mine = listed.find((c) => c.login === "Mastermind0001")!;
    expect(mine).toMatchObject({ isActive: true, usedAt: null });
    expect(mine).not.toHaveProperty("password");

    expect(run("codes", ["deactivate", "Mastermind0001"]).stdout).toContain("Mastermind0001 is now inactive.");
    const after = JSON.parse(run("codes", ["list", "--json"]).stdout) as Array<{ login: string; isActive: boolean }>;
    expect(after.find((c) => c.login === "Mastermind0001")!.isActive).toBe(false);
    expect(run("codes", ["activate", "Mastermind0001"]).stdout).toContain("is now active");

    const reset = JSON.parse(run("codes", ["reset-password", "Mastermind0001", "--json"]).stdout) as { password: string };
    expect(reset.password).not.toBe("a chosen password");
  });

  it("issues a code with an end date and a session cap, changes both, and ends its sessions (issue 14)", () => {
    const year = new Date().getUTCFullYear() + 1;
    const created = run("codes", ["create", "--level", "Architect", "--login", "Limited0001", "--expires", `${year}-01-31`, "--max-sessions", "2", "--json"]);
    expect(created.status, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ login: "Limited0001", expiresAt: `${year}-01-31T23:59:59.999Z`, maxSessions: 2 });

    const changed = run("codes", ["settings", "Limited0001", "--no-expiry", "--max-sessions", "5"]);
    expect(changed.stdout).toContain("Limited0001 never ends, at most 5 sessions at once.");
    const listed = JSON.parse(run("codes", ["list", "--json"]).stdout) as Array<{ login: string }>;
    expect(listed.find((c) => c.login === "Limited0001")).toMatchObject({ expiresAt: null, maxSessions: 5, activeSessions: 0, expired: false });
    expect(run("codes", ["end-sessions", "Limited0001"]).stdout).toContain("Ended 0 sessions of Limited0001");

    const past = run("codes", ["settings", "Limited0001", "--expires", "2020-01-01"]);
    expect(past.status).toBe(2);
    expect(past.stderr).toContain('--expires: End date must be in the future (got "2020-01-01").');
    const zero = run("codes", ["create", "--level", "Architect", "--max-sessions", "0"]);
    expect(zero.status).toBe(2);
    expect(zero.stderr).toContain('--max-sessions: Session cap must be at least 1');
    expect(run("codes", ["create", "--level", "Architect", "--max-sessions", "three"]).stderr).toContain("--max-sessions: Session cap must be a number");
    expect(run("codes", ["settings", "Limited0001"]).stderr).toContain("settings needs --expires, --no-expiry or --max-sessions.");
  }, 90_000);

  it("refuses bad input clearly, with a non-zero exit", () => {
    const level = run("codes", ["create", "--level", "Wizard"]);
    expect(level.status).toBe(2);
    expect(level.stderr).toContain("--level must be Architect or Mastermind (Operator is open to everyone and needs no code).");
    // As in the admin panel, no code is issued for the open level.
    const open = run("codes", ["create", "--level", "Operator"]);
    expect(open.status).toBe(2);
    expect(open.stderr).toContain("Operator is open to everyone and needs no code");
    const taken = run("codes", ["create", "--level", "Architect", "--login", "Mastermind0001"]);
    expect(taken.status).toBe(1);
    expect(taken.stderr).toContain('The access code "Mastermind0001" already exists.');
    const unknown = run("codes", ["deactivate", "Nobody0000"]);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('No access code "Nobody0000".');
    expect(run("codes", ["fly"]).status).toBe(2);
    // An unknown option is said in one line with the usage, never as a stack trace; --help prints the usage.
    const option = run("codes", ["--bogus"]);
    expect(option.status).toBe(2);
    expect(option.stderr).toContain("Unknown option '--bogus'");
    expect(option.stderr).toContain("Usage: npm run --silent codes -- <command>");
    expect(option.stderr).not.toMatch(/^\s+at /m);
    const help = run("codes", ["--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("Usage: npm run --silent codes -- <command>");
  });
});

const baseUrl = testDatabaseUrl();

describe.skipIf(!baseUrl)("npm run codes against DATABASE_URL", () => {
  it("works on PostgreSQL", async () => {
    const scratch = await createScratchDatabase(baseUrl!);
    try {
      const created = run("codes", ["create", "--level", "Architect", "--json"], { DATABASE_URL: scratch.url });
      expect(created.status).toBe(0);
      const listed = JSON.parse(run("codes", ["list", "--json"], { DATABASE_URL: scratch.url }).stdout) as Array<{ login: string }>;
      expect(listed.map((c) => c.login)).toEqual([JSON.parse(created.stdout).login]);
    } finally {
      await scratch.drop();
    }
  });
});
