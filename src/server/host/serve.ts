/**
 * `npm start`: migrate, seed an empty database, build the site if it is missing or stale, serve it
 * with the API, and shut down gracefully on SIGINT or SIGTERM.
 */
import { config } from "../config.ts";
import { openConfiguredDatabase, type DatabaseHandle } from "../db/client.ts";
import { startHost, type RunningHost } from "./host.ts";

let database: DatabaseHandle | undefined;
let host: RunningHost | undefined;
let stopping = false;

// Installed before anything else, so a signal during start-up also closes the database cleanly.
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: finishing requests in flight, then stopping.`);
  if (host) await host.close();
  else await database?.close();
  process.exit(0);
}
process.once("SIGINT", () => void stop("SIGINT"));
process.once("SIGTERM", () => void stop("SIGTERM"));

try {
  const settings = config();
  database = await openConfiguredDatabase();
  host = await startHost({ config: settings, database });
  console.log(`The System Book is running at ${host.url} (database: ${database.driver}). Press Ctrl+C to stop.`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
