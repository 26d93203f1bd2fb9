/**
 * The databases tests run on: PGlite (in memory) always, and, when TEST_DATABASE_URL is set, that
 * PostgreSQL through `pg` and through the Neon driver (via a local relay). Each opened database is
 * a fresh one, created for the test file and dropped afterwards.
 */
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { migrationsFolder, openDatabase, type DatabaseHandle, type Driver } from "../../src/server/db/client.ts";
import { projectRoot } from "./product-server.ts";
import { startNeonRelay, type Relay } from "./neon-relay.ts";

export interface TestDatabase extends DatabaseHandle {
  /** A URL for this database (pg and neon), for child processes. */
  url?: string;
  dispose(): Promise<void>;
}

export interface DatabaseTarget {
  name: Driver;
  open(): Promise<TestDatabase>;
}

export function testDatabaseUrl(): string | undefined {
  const url = process.env.TEST_DATABASE_URL?.trim();
  if (!url && process.env.CI) {
    throw new Error("CI=true but TEST_DATABASE_URL is not set: the PostgreSQL and Neon tests would be skipped.");
  }
  return url || undefined;
}

/** Every database the current run tests against. */
export function databaseTargets(): DatabaseTarget[] {
  const url = testDatabaseUrl();
  const targets: DatabaseTarget[] = [{ name: "pglite", open: openPglite }];
  if (url) {
    targets.push({ name: "pg", open: () => openServer(url, "pg") });
    targets.push({ name: "neon", open: () => openServer(url, "neon") });
  }
  return targets;
}

async function openPglite(): Promise<TestDatabase> {
  const handle = await openDatabase({ driver: "pglite", dataDir: null, image: await migratedImage() });
  await handle.migrate(); // (nothing left to apply: the image is migrated)
  return { ...handle, dispose: () => handle.close() };
}

let image: Promise<Blob> | undefined;

/** A short hash of the migrations: a migrated database made from other migrations is never reused. */
function migrationsHash(): string {
  const hash = createHash("sha256");
  for (const file of fs.readdirSync(migrationsFolder, { recursive: true }).map(String).sort()) {
    const full = path.join(migrationsFolder, file);
    if (fs.statSync(full).isFile()) hash.update(file).update(fs.readFileSync(full));
  }
  return hash.digest("hex").slice(0, 16);
}

/**
 * A migrated, empty embedded database, dumped once per set of migrations and kept on disk: a new
 * PGlite starts from it in about 0.3 s, where creating one and migrating it takes 1.2-1.8 s (its
 * initdb), and every test file opens at least one.
 */
function migratedImage(): Promise<Blob> {
  image ??= (async () => {
    const file = path.join(projectRoot, "node_modules", ".cache", "test-databases", `pglite-${migrationsHash()}.tar`);
    if (!fs.existsSync(file)) {
      const fresh = await openDatabase({ driver: "pglite", dataDir: null });
      await fresh.migrate();
      const dumped = Buffer.from(await (await fresh.dump!()).arrayBuffer());
      await fresh.close();
      fs.mkdirSync(path.dirname(file), { recursive: true });
      // Test files start at once: each writes its own and renames it in, whole.
      const partial = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
      fs.writeFileSync(partial, dumped);
      fs.renameSync(partial, file);
    }
    return new Blob([fs.readFileSync(file)]);
  })();
  return image;
}

/** The URL of the database `name` on the server of `baseUrl`. */
const databaseUrl = (baseUrl: string, name: string) => Object.assign(new URL(baseUrl), { pathname: `/${name}` }).toString();

/**
 * Creates a fresh database on the server of `baseUrl` (empty, or `from` a template); answers its URL
 * and how to drop it.
 */
export async function createScratchDatabase(baseUrl: string, from?: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `sb_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${from ? ` TEMPLATE ${from}` : ""}`);
  await admin.end();
  const url = databaseUrl(baseUrl, name);
  return {
    url,
    async drop() {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

let relay: Promise<Relay> | undefined;

const templates = new Map<string, Promise<string>>();

/**
 * A migrated, empty database on the server of `baseUrl`, made once per set of migrations (and kept
 * there) for new ones to be copied from: CREATE DATABASE from it takes 40-100 ms, where migrating
 * a new one took 230-690 ms, and a test file opens one for pg and one for Neon. Made under a
 * name of its own and renamed when whole, under an advisory lock: the test files that start at
 * once wait for the one that makes it.
 */
function migratedTemplate(baseUrl: string): Promise<string> {
  let template = templates.get(baseUrl);
  if (!template) {
    template = (async () => {
      const name = `sb_template_${migrationsHash()}`;
      const admin = new pg.Client({ connectionString: baseUrl });
      await admin.connect();
      try {
        await admin.query("SELECT pg_advisory_lock(hashtext($1))", [name]);
        const { rowCount } = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
        if (!rowCount) {
          const partial = `${name}_partial`;
          await admin.query(`DROP DATABASE IF EXISTS ${partial} WITH (FORCE)`);
          await admin.query(`CREATE DATABASE ${partial}`);
          const handle = await openDatabase({ driver: "pg", url: databaseUrl(baseUrl, partial) });
          try {
            await handle.migrate();
          } finally {
            await handle.close();
          }
          await admin.query(`ALTER DATABASE ${partial} RENAME TO ${name}`);
        }
        return name;
      } finally {
        await admin.end(); // (the session's advisory lock goes with it)
      }
    })();
    template.catch(() => templates.delete(baseUrl));
    templates.set(baseUrl, template);
  }
  return template;
}

async function openServer(baseUrl: string, driver: "pg" | "neon"): Promise<TestDatabase> {
  const scratch = await createScratchDatabase(baseUrl, await migratedTemplate(baseUrl));
  if (driver === "neon") await useRelay();
  const handle = await openDatabase({ driver, url: scratch.url });
  await handle.migrate(); // (nothing left to apply: the template is migrated)
  return {
    ...handle,
    url: scratch.url,
    async dispose() {
      await handle.close();
      await scratch.drop();
    },
  };
}

/** Points the Neon driver at the local relay instead of Neon's WebSocket proxy. */
async function useRelay(): Promise<void> {
  relay ??= startNeonRelay();
  const { port } = await relay;
  const { neonConfig } = await import("@neondatabase/serverless");
  neonConfig.wsProxy = (host, hostPort) => `127.0.0.1:${port}/v2?address=${host}:${hostPort}`;
  neonConfig.useSecureWebSocket = false;
  neonConfig.pipelineTLS = false;
  neonConfig.pipelineConnect = false;
}
