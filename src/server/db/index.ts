/**
 * The process's database: opened from configuration on first use, or installed by the host or a test.
 */
import { config } from "../config.ts";
import { openDatabase, type Database, type DatabaseHandle } from "./client.ts";

let current: Promise<DatabaseHandle> | undefined;

/** Opens the database the configuration names. */
export function openConfiguredDatabase(): Promise<DatabaseHandle> {
  const { driver, databaseUrl, dataDir } = config();
  return openDatabase({ driver, url: databaseUrl, dataDir });
}

export function databaseHandle(): Promise<DatabaseHandle> {
  if (!current) {
    current = openConfiguredDatabase();
    // A failed open (database down) is not remembered: the next request tries again.
    current.catch(() => {
      current = undefined;
    });
  }
  return current;
}

export async function database(): Promise<Database> {
  return (await databaseHandle()).db;
}

/** Makes `handle` the process's database (the local host and tests). */
export function useDatabase(handle: DatabaseHandle): void {
  current = Promise.resolve(handle);
}

export async function closeDatabase(): Promise<void> {
  const handle = current;
  current = undefined;
  if (handle) await (await handle).close();
}
