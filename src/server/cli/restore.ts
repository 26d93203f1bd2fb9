/**
 * `npm run restore -- FILE [--force]`: loads a backup made by `npm run backup` into the database,
 * in one transaction. It refuses a database that holds any row unless --force is given (then
 * everything in it is replaced), and a backup of another migration level. See src/server/backup/.
 *
 * Works against DATABASE_URL, or the embedded database while the server is stopped.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { openBackupFile } from "../backup/backup-file.ts";
import { restoreBackup } from "../backup/restore.ts";
import { withDatabase } from "./with-database.ts";

const USAGE = `Usage: npm run restore -- FILE [--force] [--json]
  --force   replace what the database holds (without it, only an empty database is restored into)
The database is DATABASE_URL, else the embedded one in DATA_DIR (stop the server first).`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { force: { type: "boolean", default: false }, json: { type: "boolean", default: false } },
});

if (positionals.length !== 1) {
  console.error(`${positionals.length === 0 ? "Missing the backup file's name." : "Give one file name."}\n\n${USAGE}`);
  process.exit(2);
}
const file = path.resolve(positionals[0]!);

await withDatabase(async ({ db, migrate }) => {
  // Read and check the whole file before the database is touched (a batch of rows at a time).
  const backup = await openBackupFile(file);
  await migrate();
  const summary = await restoreBackup(db, backup, { force: values.force });
  if (values.json) {
    console.log(JSON.stringify(summary));
    return;
  }
  const total = summary.tables.reduce((sum, t) => sum + t.rows, 0);
  if (summary.replaced.length > 0) console.log(`Replaced what the database held (${summary.replaced.join(", ")}).`);
  console.log(`Restored ${total} rows in ${summary.tables.length} tables from ${file} (backup of ${backup.header.createdAt}).`);
  console.log("Restart any server using this database (it keeps cached pages); on Netlify, publish from the admin panel.");
});
