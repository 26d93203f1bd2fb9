/**
 * The servers end-to-end tests run against: the real `npm start` entry point, each on its own
 * port and data folder (embedded database), so tests see exactly what a visitor would.
 *
 * The run prepares one template (global-setup.ts): a database migrated and seeded, with the run's
 * access codes and admin account, and the site built from it. Each Playwright worker then copies
 * the template into a folder of its own and starts its own server there (page-test.ts), so workers
 * run side by side without sharing a database, and none builds the site again at start (the
 * copied build's stamp matches its copied database).
 */
import { openDatabase } from "../../src/server/db/client.ts";
import { growBook } from "../support/grown-book.ts";
import { startProduct, type ProductServer } from "../support/product-server.ts";
import fs from "node:fs";
import path from "node:path";

export const projectRoot = path.resolve(import.meta.dirname, "../..");
/** The first port of the run: the template's server, then one a worker (set E2E_PORT to run two suites side by side). */
export const E2E_PORT = Number(process.env.E2E_PORT || 4400);
/** Each run's own folder (set E2E_DATA_DIR to run two suites side by side). */
export const E2E_DATA_DIR = path.resolve(projectRoot, process.env.E2E_DATA_DIR || ".data/e2e");
/** The database and built site every worker's server starts from. */
export const TEMPLATE_DIR = path.join(E2E_DATA_DIR, "template");

/** A worker's own server. */
export interface WorkerSite {
  /** http://localhost:PORT */
  url: string;
  dataDir: string;
  /** The built site that server serves. */
  siteDir: string;
}

/** Starts the product on `port` with `dataDir` as its data folder (embedded database). */
export function startProductServer(dataDir: string, port: number, env: Record<string, string> = {}): Promise<ProductServer> {
  return startProduct({
    PORT: String(port),
    DATA_DIR: dataDir,
    SITE_DIR: path.join(dataDir, "site"),
    DATABASE_URL: "",
    // The browser of each test is a visitor of its own (page-test.ts sends X-Forwarded-For), so
    // the per-address limits count each test apart, as they would count real visitors.
    TRUSTED_PROXY: "127.0.0.1,::1",
    ...env,
  });
}

/**
 * Copies the template into the folder of the worker in slot `index` and starts its server there;
 * answers it and a way to stop it. `run` names the worker process (a slot gets a new one after a
 * failed test), for the server's log.
 */
export async function startWorkerSite(index: number, run: number): Promise<{ site: WorkerSite; stop: () => Promise<unknown>; output: () => string }> {
  const dataDir = path.join(E2E_DATA_DIR, `worker-${index}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.cpSync(TEMPLATE_DIR, dataDir, { recursive: true });
  const port = E2E_PORT + 1 + index;
  const server = await startProductServer(dataDir, port);
  const stop = async () => {
    await server.stop();
    // What the server said, for a failure's post-mortem (the test results folder).
    fs.writeFileSync(path.join(projectRoot, "test-results", `e2e-server-${index}-${run}.log`), server.output());
  };
  return { site: { url: `http://localhost:${port}`, dataDir, siteDir: path.join(dataDir, "site") }, stop, output: () => server.output() };
}

/**
 * A server of its own on the seed book alone (a copy of the template), for a test whose figures
 * must not depend on what earlier tests added to its worker's book; with `chapters`, on the seed
 * book grown to that many chapters (issue 45). Stop it when done.
 */
export async function startSeedSite(index: number, { chapters }: { chapters?: number } = {}): Promise<{ url: string; stop: () => Promise<unknown> }> {
  const dataDir = path.join(E2E_DATA_DIR, `${chapters ? `book-${chapters}` : "seed"}-${index}`);
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.cpSync(TEMPLATE_DIR, dataDir, { recursive: true });
  if (chapters) {
    // A grown book (tests/support/grown-book.ts): the server builds its site again at start.
    const database = await openDatabase({ driver: "pglite", dataDir });
    try {
      await growBook(database.db, chapters);
    } finally {
      await database.close();
    }
  }
  // Past every worker's port.
  const port = E2E_PORT + 50 + index + (chapters ? 10 : 0);
  const server = await startProductServer(dataDir, port);
  return { url: `http://localhost:${port}`, stop: () => server.stop() };
}

export function freshDataDir(): void {
  fs.rmSync(E2E_DATA_DIR, { recursive: true, force: true });
  fs.mkdirSync(TEMPLATE_DIR, { recursive: true });
}
