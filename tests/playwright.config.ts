import { defineConfig } from "@playwright/test";
import { HEADLESS_SHELL } from "./support/chromium.ts";

/** End-to-end tests drive Debian's Chromium headless shell (test tools cannot download browsers here). */
export default defineConfig({
  testDir: "./e2e",
  testMatch: "**/*.test.ts",
  globalSetup: "./e2e/global-setup.ts",
  fullyParallel: false,
  // Three workers on the two cores, each with its own server and database (e2e/server.ts,
  // e2e/page-test.ts): a worker spends part of each test waiting (held routes, a quiet network,
  // the browser's frames), which the third fills. Measured on a fresh clone (issue 45: 4): the
  // stage took 326 s with three (the CPU 13 % idle) against 405 s with two. (In the full browser,
  // before the headless shell, three had been slower: 723 s against 633 s, the CPU busy 95 % with
  // two.) E2E_WORKERS sets another number.
  workers: Number(process.env.E2E_WORKERS) || 3,
  retries: 0,
  // Hang guards, not speed checks (times belong to the bench): a test that takes 10-13 s on a quiet
  // machine took over 30 s in a CI run on a machine measured 3-4x slower, with both workers busy.
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [["list"], ["json", { outputFile: "../test-results/playwright.json" }]],
  outputDir: "../test-results/playwright",
  use: {
    browserName: "chromium",
    trace: "off",
    launchOptions: {
      // Chromium's headless shell (support/chromium.ts; npm test installs it): the stage took 7.7
      // min in it against 11.3 in the full browser, whose browser process alone spent 2 min of
      // CPU per worker.
      executablePath: process.env.CHROMIUM_PATH || HEADLESS_SHELL.path,
      // Text positioned as the full browser positions it (the shell hints glyphs to whole pixels
      // by default, which moved lines by a hair when the book's face replaced its metric-matched
      // fallback: layout.test and budgets.test measure that no line moves).
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic", "--no-first-run", "--font-render-hinting=none"],
    },
  },
});
