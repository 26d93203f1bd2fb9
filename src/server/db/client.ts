/**
 * Opening a database for a long-lived process (the local host, a CLI, the build, tests): no
 * DATABASE_URL means PGlite (Postgres in WebAssembly) in DATA_DIR; a Neon URL (or
 * DATABASE_DRIVER=neon) means @neondatabase/serverless; any other postgres URL means `pg`.
 * Netlify Functions connect per request through remote.ts instead (see src/server/runtime).
 * Everything else talks to the drizzle `Database`.
 */
import { fileURLToPath } from "node:url";
import { config } from "../config.ts";
import { openPglite } from "./pglite.ts";
import { connectRemote, type Connection } from "./remote.ts";
import type { Database, Driver } from "./types.ts";

export type { Database, Driver, Schema } from "./types.ts";
export { DataDirBusyError } from "./pglite.ts";

export interface DatabaseHandle extends Connection<Driver> {
  /** Applies the versioned migrations that are not applied yet; running it twice changes nothing. */
  migrate(): Promise<void>;
}

export interface OpenOptions {
  driver: Driver;
  /** For pg and neon. */
  url?: string;
  /** For pglite: a folder, or null for an in-memory database (tests). */
  dataDir?: string | null;
  /** For an in-memory pglite: the dumped data folder it starts from (tests keep a migrated one). */
  image?: Blob;
}

export const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));

/** A server's pool is shared by its concurrent requests. */
const SERVER_POOL_SIZE = 10;

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  const opened: Connection<Driver> =
    options.driver === "pglite"
      ? await openPglite(options.dataDir ?? null, options.image)
      : await connectRemote(options.driver, requireUrl(options), { max: SERVER_POOL_SIZE });
  return { ...opened, migrate: () => migrate(opened.driver, opened.db) };
}

/** Opens the database the configuration names. */
export function openConfiguredDatabase(): Promise<DatabaseHandle> {
  const { driver, databaseUrl, dataDir } = config();
  return openDatabase({ driver, url: databaseUrl, dataDir });
}

async function migrate(driver: Driver, db: Database): Promise<void> {
  const { migrate: run } =
    driver === "pglite"
      ? await import("drizzle-orm/pglite/migrator")
      : driver === "pg"
        ? await import("drizzle-orm/node-postgres/migrator")
        : await import("drizzle-orm/neon-serverless/migrator");
  await run(db as never, { migrationsFolder });
}

function requireUrl(options: OpenOptions): string {
  if (!options.url) throw new Error(`The ${options.driver} driver needs a database URL.`);
  return options.url;
}
