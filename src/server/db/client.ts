/**
 * The one module that knows about database drivers. No DATABASE_URL means PGlite (Postgres in
 * WebAssembly) in DATA_DIR; a Neon URL (or DATABASE_DRIVER=neon) means @neondatabase/serverless;
 * any other postgres URL means `pg`. Everything else talks to the drizzle `Database` it returns.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import * as schema from "./schema.ts";

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Driver = "pglite" | "pg" | "neon";

export interface DatabaseHandle {
  readonly db: Database;
  readonly driver: Driver;
  /** Applies the versioned migrations that are not applied yet; running it twice changes nothing. */
  migrate(): Promise<void>;
  /** Throws when the database cannot answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface OpenOptions {
  driver: Driver;
  /** For pg and neon. */
  url?: string;
  /** For pglite: a folder, or null for an in-memory database (tests). */
  dataDir?: string | null;
}

export const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));

export class DataDirBusyError extends Error {
  override name = "DataDirBusyError";
}

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  switch (options.driver) {
    case "pglite":
      return openPglite(options.dataDir ?? null);
    case "pg":
      return openPg(requireUrl(options));
    case "neon":
      return openNeon(requireUrl(options));
  }
}

function requireUrl(options: OpenOptions): string {
  if (!options.url) throw new Error(`The ${options.driver} driver needs a database URL.`);
  return options.url;
}

function handle(
  driver: Driver,
  db: Database,
  migrate: () => Promise<void>,
  close: () => Promise<void>,
): DatabaseHandle {
  return {
    db,
    driver,
    migrate,
    close,
    async ping() {
      await db.execute(sql`select 1`);
    },
  };
}

async function openPglite(dataDir: string | null): Promise<DatabaseHandle> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  let releaseLock = () => {};
  let dir: string | undefined;
  if (dataDir) {
    dir = path.join(dataDir, "pglite");
    fs.mkdirSync(dir, { recursive: true });
    releaseLock = lockDataDir(dataDir);
  }
  try {
    const client = await PGlite.create(dir ? { dataDir: dir } : {});
    const db = drizzle({ client, schema }) as unknown as Database;
    return handle(
      "pglite",
      db,
      async () => {
        await migrate(db as never, { migrationsFolder });
      },
      async () => {
        await client.close();
        releaseLock();
      },
    );
  } catch (error) {
    releaseLock();
    throw error;
  }
}

async function openPg(url: string): Promise<DatabaseHandle> {
  const { default: pg } = await import("pg");
  const { drizzle } = await import("drizzle-orm/node-postgres");
  const { migrate } = await import("drizzle-orm/node-postgres/migrator");
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5000 });
  // An idle client losing its connection (database restarted) must not crash the process;
  // the next query gets a fresh connection or a clear error.
  pool.on("error", () => {});
  const db = drizzle({ client: pool, schema }) as unknown as Database;
  return handle(
    "pg",
    db,
    async () => {
      await migrate(db as never, { migrationsFolder });
    },
    () => pool.end(),
  );
}

async function openNeon(url: string): Promise<DatabaseHandle> {
  const { Pool } = await import("@neondatabase/serverless");
  const { drizzle } = await import("drizzle-orm/neon-serverless");
  const { migrate } = await import("drizzle-orm/neon-serverless/migrator");
  const pool = new Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5000 });
  pool.on("error", () => {});
  const db = drizzle({ client: pool, schema }) as unknown as Database;
  return handle(
    "neon",
    db,
    async () => {
      await migrate(db as never, { migrationsFolder });
    },
    () => pool.end(),
  );
}

/**
 * PGlite is one process, one connection: two processes opening the same folder would corrupt it.
 * A lock file holding the owner's pid keeps a CLI or a build from opening it while the server runs.
 */
function lockDataDir(dataDir: string): () => void {
  const lockFile = path.join(dataDir, "pglite.lock");
  const take = () => fs.writeFileSync(lockFile, String(process.pid), { flag: "wx" });
  try {
    take();
  } catch {
    const owner = Number(fs.readFileSync(lockFile, "utf8"));
    if (owner && owner !== process.pid && isAlive(owner)) {
      throw new DataDirBusyError(
        `The embedded database in ${dataDir} is in use by process ${owner} (is \`npm start\` running?). ` +
          "Stop that process first, or set DATABASE_URL to use a PostgreSQL server.",
      );
    }
    fs.rmSync(lockFile, { force: true });
    take();
  }
  const release = () => fs.rmSync(lockFile, { force: true });
  process.once("exit", release);
  return () => {
    process.off("exit", release);
    release();
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
