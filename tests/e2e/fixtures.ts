/** End-to-end fixtures: the access codes issued for this run, and signing a browser in. */
import fs from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import type { Level } from "../../src/lib/levels.ts";
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

/** Signs the page's browser context in as `level` (through the API; the UI reconciles on load). */
export async function loginAs(page: Page, level: Level): Promise<void> {
  const { login, password } = codeFor(level);
  const response = await page.request.post("/api/auth/validate", { data: { login, password } });
  expect(response.status()).toBe(200);
}
