/**
 * `npm run dev`: Astro's dev server for page work, with hot reload, on http://localhost:4322.
 * Pages read a content snapshot: a fresh one from the database, or, while `npm start` holds the
 * embedded database, the one it last built with. /api and /uploads are proxied to `npm start`
 * (DEV_API_URL, default http://127.0.0.1:4321), so run it alongside.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { config } from "../config.ts";
import { DataDirBusyError, openConfiguredDatabase } from "../db/client.ts";
import { projectRoot } from "../host/netlify-config.ts";
import { SNAPSHOT_ENV, takeSnapshot, writeSnapshot } from "./snapshot.ts";

const snapshotFile = path.join(config().dataDir, "build", "site-content.json");

try {
  const database = await openConfiguredDatabase();
  try {
    await database.migrate();
    writeSnapshot(snapshotFile, await takeSnapshot(database.db));
  } finally {
    await database.close();
  }
} catch (error) {
  if (!(error instanceof DataDirBusyError) || !fs.existsSync(snapshotFile)) throw error;
  console.log("The server holds the embedded database: using the content it last built with.");
}

const astro = path.join(projectRoot, "node_modules", "astro", "bin", "astro.mjs");
const child = spawn(process.execPath, [astro, "dev", ...process.argv.slice(2)], {
  cwd: projectRoot,
  env: { ...process.env, [SNAPSHOT_ENV]: snapshotFile, ASTRO_TELEMETRY_DISABLED: "1" },
  stdio: "inherit",
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 0));
