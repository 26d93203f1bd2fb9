import { defineConfig } from "vitest/config";

export default defineConfig({
  root: new URL("..", import.meta.url).pathname,
  test: {
    include: ["src/**/*.test.ts", "tests/api/**/*.test.ts", "tests/integration/**/*.test.ts", "tests/parity/**/*.test.ts", "tests/production/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Three files at a time on two cores: each file has its own databases, servers, ports and
    // folders, and many wait on a child process or PostgreSQL part of the time. Measured: 5.2 min
    // for the whole run against 8.3 min one file at a time; then 345 s with two at a time (the CPU
    // 7 % idle) against 310 s with three (1 % idle). VITEST_MAX_WORKERS sets another number.
    fileParallelism: true,
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS) || 3,
  },
});
