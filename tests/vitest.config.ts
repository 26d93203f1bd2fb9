import { defineConfig } from "vitest/config";

export default defineConfig({
  root: new URL("..", import.meta.url).pathname,
  test: {
    include: ["src/**/*.test.ts", "tests/api/**/*.test.ts", "tests/integration/**/*.test.ts", "tests/parity/**/*.test.ts", "tests/production/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Integration tests start servers and databases: keep the two cores from thrashing.
    fileParallelism: false,
  },
});
