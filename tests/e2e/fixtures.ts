/** End-to-end fixtures: the access codes issued for this run, and signing a browser in. */
import fs from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import type { Level } from "../../src/lib/levels.ts";
import { issueCode } from "./admin-fixtures.ts";
import { E2E_DATA_DIR } from "./server.ts";

export interface Code {
  login: string;
  password: string;
  level: Level;
}

export function codeFor(level: Level): Code {
  const codes = JSON.parse(fs.readFileSync(path.join(E2E_DATA_DIR, "codes.json"), "utf8")) as Record<Level, Code>;
  return codes[level];
}

/**
 * Signs the page's browser context in as `level` (through the API; the UI reconciles on load), with
 * an access code of its own for a locked level: a code's reading heartbeats are capped (90 in 5
 * minutes), and a worker's tests signed in on the run's shared codes passed that cap as the suite
 * got faster. (The admin panel issues no Operator code: an Operator member takes the run's.)
 */
export async function loginAs(page: Page, level: Level): Promise<void> {
  const { login, password } = level === "Operator" ? codeFor(level) : await issueCode(page.context().browser()!, { level });
  const response = await page.request.post("/api/auth/validate", { data: { login, password } });
  expect(response.status()).toBe(200);
}
