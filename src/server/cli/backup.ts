/**
 * `npm run backup -- FILE`: writes every row of every table, the sequences and the migration
 * level to FILE (JSON lines; gzip when FILE ends in .gz), readable by its owner only (mode 0600):
 * it holds password hashes, webhook secrets, session ids and respondents' names and emails.
 * See src/server/backup/.
 *
 * Works against DATABASE_URL, or the embedded database while the server is stopped.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { backupDatabase } from "../backup/backup.ts";
import { withDatabase } from "./with-database.ts";

const USAGE = `Usage: npm run backup -- FILE [--json]
  FILE ending in .gz is compressed. The database is DATABASE_URL, else the embedded one in DATA_DIR.`;

const { values, positionals } = parseArgs({ allowPositionals: true, options: { json: { type: "boolean", default: false } } });

if (positionals.length !== 1) {
  console.error(`${positionals.length === 0 ? "Missing the backup file's name." : "Give one file name."}\n\n${USAGE}`);
  process.exit(2);
}
const file = path.resolve(positionals[0]!);

await withDatabase(async ({ db, driver }) => {
  const summary = await backupDatabase(db, driver, file);
  if (values.json) {
    console.log(JSON.stringify(summary));
    return;
  }
  const total = summary.tables.reduce((sum, t) => sum + t.rows, 0);
  console.log(`Backup written to ${file} (${summary.bytes.toLocaleString("en")} bytes, migration ${summary.migration}).`);
  console.log("It holds password hashes, secrets and people's names and emails: only you can read it (mode 0600); keep it like a password.");
  console.log(`${total} rows in ${summary.tables.length} tables:`);
  for (const t of summary.tables) console.log(`  ${t.name.padEnd(24)} ${t.rows}`);
});
