import { defineConfig } from "@playwright/test";
import { E2E_BASE_URL } from "./e2e/server.ts";

/** End-to-end tests drive Debian's Chromium (test tools cannot download browsers here). */
export default defineConfig({
  testDir: "./e2e",
  testMatch: "**/*.test.ts",
  globalSetup: "./e2e/global-setup.ts",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  reporter: [["list"], ["json", { outputFile: "../test-results/playwright.json" }]],
  outputDir: "../test-results/playwright",
  use: {
    baseURL: E2E_BASE_URL,
    browserName: "chromium",
    trace: "off",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic", "--no-first-run"],
    },
  },
});
