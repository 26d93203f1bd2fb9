/**
 * Runs a command-line task against the configured database: opens it (refusing politely when a
 * running server holds the embedded one), runs the task, closes it, and exits non-zero on failure.
 */
import fs from "node:fs";
import path from "node:path";
import { config } from "../config.ts";
import { openConfiguredDatabase, type DatabaseHandle } from "../db/client.ts";

/**
 * A warning when the embedded database is about to be made in a folder that holds none: most
 * often the CLI was not given the server's DATA_DIR, and would work on an empty database of its own.
 */
export function newDatabaseWarning(settings = config()): string | null {
  if (settings.driver !== "pglite" || fs.existsSync(path.join(settings.dataDir, "pglite"))) return null;
  return `Note: ${settings.dataDir} holds no database yet, so a new, empty one is made there. If the server runs with another DATA_DIR (or DATABASE_URL), give this command the same one.`;
}

export async function withDatabase(task: (handle: DatabaseHandle) => Promise<void>): Promise<void> {
  let handle: DatabaseHandle | undefined;
  try {
    const warning = newDatabaseWarning();
    if (warning) console.error(warning);
    handle = await openConfiguredDatabase();
    await task(handle);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  } finally {
    await handle?.close();
  }
}
