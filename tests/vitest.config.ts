import fs from "node:fs";
import { defineConfig } from "vitest/config";

const root = new URL("..", import.meta.url).pathname;
const include = ["src/**/*.test.ts", "tests/api/**/*.test.ts", "tests/integration/**/*.test.ts", "tests/parity/**/*.test.ts", "tests/production/**/*.test.ts"];
/**
 * The test files that replace a module (vi.mock): a replacement reaches only a module graph made
 * after it, so these run in a process of their own, as every file once did.
 */
const mocking = fs.globSync(include, { cwd: root }).filter((file) => /\bvi\.(mock|doMock)\(/.test(fs.readFileSync(`${root}/${file}`, "utf8")));

export default defineConfig({
  root,
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Three files at a time on two cores: each file has its own databases, servers, ports and
    // folders, and many wait on a child process or PostgreSQL part of the time. Measured: 5.2 min
    // for the whole run against 8.3 min one file at a time; then 345 s with two at a time (the CPU
    // 7 % idle) against 310 s with three (1 % idle). VITEST_MAX_WORKERS sets another number.
    fileParallelism: true,
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS) || 3,
    projects: [
      {
        extends: true,
        test: {
          name: "shared",
          include,
          exclude: mocking,
          // A worker's files share its process and module graph, where each file had a new process
          // and graph of its own. Measured back to back (issue 45: 4): 235 s and 388 CPU-s for the
          // stage against 282 s and 488 CPU-s. Each file starts from the worker's environment,
          // configuration and stand-ins again (each-file.ts).
          isolate: false,
          setupFiles: ["tests/support/each-file.ts"],
        },
      },
      // (Only when there are such files: a project with no include falls back to vitest's own.)
      ...(mocking.length ? [{ extends: true, test: { name: "own-process", include: mocking, isolate: true } }] : []),
    ],
  },
});
