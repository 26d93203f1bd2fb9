/**
 * Runs a command-line task against the configured database: opens it (refusing politely when a
 * running server holds the embedded one), runs the task, closes it, and exits non-zero on failure.
 */
import type { DatabaseHandle } from "../db/client.ts";
import { openConfiguredDatabase } from "../db/index.ts";

export async function withDatabase(task: (handle: DatabaseHandle) => Promise<void>): Promise<void> {
  let handle: DatabaseHandle | undefined;
  try {
    handle = await openConfiguredDatabase();
    await task(handle);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  } finally {
    await handle?.close();
  }
}
