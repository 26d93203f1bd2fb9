/**
 * The server end-to-end tests run against: the real `npm start` entry point on its own port and
 * its own fresh data folder (embedded database), so tests see exactly what a visitor would.
 */
import { startProduct, type ProductServer } from "../support/product-server.ts";
import fs from "node:fs";
import path from "node:path";

export const E2E_PORT = Number(process.env.E2E_PORT || 4400);
export const E2E_BASE_URL = `http://localhost:${E2E_PORT}`;
export const projectRoot = path.resolve(import.meta.dirname, "../..");
/** Each run's own data and site folder (set E2E_DATA_DIR to run two suites side by side). */
export const E2E_DATA_DIR = path.resolve(projectRoot, process.env.E2E_DATA_DIR || ".data/e2e");

/** Starts the product on the end-to-end port and data folder (embedded database). */
export function startProductServer(env: Record<string, string> = {}): Promise<ProductServer> {
  return startProduct({
    PORT: String(E2E_PORT),
    DATA_DIR: E2E_DATA_DIR,
    SITE_DIR: path.join(E2E_DATA_DIR, "site"),
    DATABASE_URL: "",
    // The browser of each test is a visitor of its own (page-test.ts sends X-Forwarded-For), so
    // the per-address limits count each test apart, as they would count real visitors.
    TRUSTED_PROXY: "127.0.0.1,::1",
    ...env,
  });
}

export function freshDataDir(): void {
  fs.rmSync(E2E_DATA_DIR, { recursive: true, force: true });
  fs.mkdirSync(E2E_DATA_DIR, { recursive: true });
}
