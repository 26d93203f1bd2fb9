/**
 * The embedded database: PGlite (Postgres in WebAssembly) in a folder, or in memory for tests.
 * Local only: Netlify Functions never import this module (see remote.ts).
 */
import fs from "node:fs";
import path from "node:path";
import * as schema from "./schema.ts";
import { connection, type Connection } from "./remote.ts";
import type { Database } from "./types.ts";
import { queryLogger } from "./query-log.ts";
import { offerNamedStatements } from "./named-statements.ts";

export class DataDirBusyError extends Error {
  override name = "DataDirBusyError";
}

/**
 * Opens PGlite in `dataDir` (or in memory when null), starting an in-memory one from `image` (a
 * data folder PGlite dumped, as tests keep a migrated one) when given.
 */
export async function openPglite(dataDir: string | null, image?: Blob): Promise<Connection<"pglite">> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { pgliteStatement } = await import("./pglite-statement.ts");
  let releaseLock = () => {};
  let dir: string | undefined;
  if (dataDir) {
    dir = path.join(dataDir, "pglite");
    fs.mkdirSync(dir, { recursive: true });
    releaseLock = lockDataDir(dataDir);
  }
  try {
    const client = await PGlite.create(dir ? { dataDir: dir } : image ? { loadDataDir: image } : {});
    const db = drizzle({ client, schema, logger: queryLogger }) as unknown as Database;
    offerNamedStatements(db, (name, text) => pgliteStatement(client, name, text));
    return {
      ...connection("pglite", db, async () => {
        await client.close();
        releaseLock();
      }),
      dump: () => client.dumpDataDir("none"),
    };
  } catch (error) {
    releaseLock();
    throw error;
  }
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
