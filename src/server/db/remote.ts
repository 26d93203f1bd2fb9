/**
 * Connections to a PostgreSQL server: `pg` over TCP, or Neon's serverless driver over WebSockets.
 * This module is all a Netlify Function needs of the database layer: it never names the embedded
 * PGlite nor the migrator, so Netlify's bundler (which traces every import) leaves them out; the
 * drizzle adapters are imported by path to be bundled rather than copied whole (see orm.ts).
 */
import { sql } from "./orm.ts";
import type { Database, Driver, RemoteDriver } from "./types.ts";
import * as schema from "./schema.ts";
import { queryLogger } from "./query-log.ts";

export interface Connection<D extends Driver = RemoteDriver> {
  readonly db: Database;
  readonly driver: D;
  /** Throws when the database cannot answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** PGlite only: its data folder as a tarball, which `openPglite` can start another from. */
  dump?(): Promise<Blob>;
}

export interface ConnectOptions {
  /** How many connections the pool may open: many for a long-lived server, one per function request. */
  max: number;
}

export async function connectRemote(driver: RemoteDriver, url: string, { max }: ConnectOptions): Promise<Connection> {
  if (driver === "neon") {
    const { Pool } = await import("@neondatabase/serverless");
    const { drizzle } = await import("../../../node_modules/drizzle-orm/neon-serverless/index.js");
    const pool = new Pool({ connectionString: url, max, connectionTimeoutMillis: 5000 });
    // An idle connection dropping (database restarted, compute suspended) must not crash the
    // process; the next query gets a fresh connection or a clear error.
    pool.on("error", () => {});
    return connection(driver, drizzle({ client: pool, schema, logger: queryLogger }) as unknown as Database, () => pool.end());
  }
  const { default: pg } = await import("pg");
  const { drizzle } = await import("../../../node_modules/drizzle-orm/node-postgres/index.js");
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 5000 });
  pool.on("error", () => {});
  return connection(driver, drizzle({ client: pool, schema, logger: queryLogger }) as unknown as Database, () => pool.end());
}

export function connection<D extends Driver>(driver: D, db: Database, close: () => Promise<void>): Connection<D> {
  return {
    db,
    driver,
    close,
    async ping() {
      await db.execute(sql`select 1`);
    },
  };
}
