/**
 * `npm test`: unit, API and integration tests (vitest), then end-to-end tests (Playwright in
 * Debian's Chromium headless shell, installed when it is missing: support/chromium.ts); a missing
 * browser fails the run rather than skipping anything.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ensureChromium, HEADLESS_SHELL } from "./support/chromium.ts";

const root = path.resolve(import.meta.dirname, "..");
const results = path.join(root, "test-results");
const timings: string[] = [];
// Every Node process the tests start (servers, site builds, the CLI, the emulator's function
// workers) keeps V8's compiled code for the next one: 3-7 % less CPU on the two heaviest files.
process.env.NODE_COMPILE_CACHE ??= path.join(root, "node_modules", ".cache", "node-compile");

function run(label: string, args: string[]): boolean {
  console.log(`\n=== ${label} ===`);
  const started = performance.now();
  const bin = path.join(root, "node_modules", ".bin", args[0]!);
  const result = spawnSync(process.execPath, [bin, ...args.slice(1)], { cwd: root, stdio: "inherit" });
  timings.push(`${label}: ${((performance.now() - started) / 1000).toFixed(0)} s`);
  return result.status === 0;
}

function counts(): { passed: number; failed: number } {
  const read = (file: string) => {
    try {
      return JSON.parse(fs.readFileSync(path.join(results, file), "utf8"));
    } catch {
      return null;
    }
  };
  const unit = read("vitest.json");
  const e2e = read("playwright.json");
  return {
    passed: (unit?.numPassedTests ?? 0) + (e2e?.stats?.expected ?? 0),
    failed: (unit?.numFailedTests ?? 0) + (e2e?.stats?.unexpected ?? 0) + (e2e?.stats?.flaky ?? 0),
  };
}

fs.rmSync(results, { recursive: true, force: true });
fs.mkdirSync(results, { recursive: true });
ensureChromium(HEADLESS_SHELL);
const unitOk = run("unit, API and integration tests (vitest)", [
  "vitest",
  "run",
  "--config",
  "tests/vitest.config.ts",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${path.join(results, "vitest.json")}`,
]);
const e2eOk = run("end-to-end tests (Playwright, Chromium)", ["playwright", "test", "--config", "tests/playwright.config.ts"]);
const { passed, failed } = counts();
console.log(`\n${timings.join("\n")}\n${passed} passed, ${failed} failed`);
process.exit(unitOk && e2eOk && failed === 0 ? 0 : 1);
