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

describe("npm run codes", () => {
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
    expect(JSON.parse(created.stdout)).toEqual({ login: "Mastermind0001", password: "a chosen password", level: "Mastermind" });

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

  it("refuses bad input clearly, with a non-zero exit", () => {
    const level = run("codes", ["create", "--level", "Wizard"]);
    expect(level.status).toBe(2);
    expect(level.stderr).toContain("--level must be one of Operator, Architect, Mastermind.");
    const taken = run("codes", ["create", "--level", "Architect", "--login", "Mastermind0001"]);
    expect(taken.status).toBe(1);
    expect(taken.stderr).toContain('The access code "Mastermind0001" already exists.');
    const unknown = run("codes", ["deactivate", "Nobody0000"]);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('No access code "Nobody0000".');
    expect(run("codes", ["fly"]).status).toBe(2);
  });
});

const baseUrl = testDatabaseUrl();

describe.skipIf(!baseUrl)("npm run codes against DATABASE_URL", () => {
  it("works on PostgreSQL", async () => {
    const scratch = await createScratchDatabase(baseUrl!);
    try {
      const created = run("codes", ["create", "--level", "Operator", "--json"], { DATABASE_URL: scratch.url });
      expect(created.status).toBe(0);
      const listed = JSON.parse(run("codes", ["list", "--json"], { DATABASE_URL: scratch.url }).stdout) as Array<{ login: string }>;
      expect(listed.map((c) => c.login)).toEqual([JSON.parse(created.stdout).login]);
    } finally {
      await scratch.drop();
    }
  });
});
