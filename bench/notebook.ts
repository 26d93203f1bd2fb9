/**
 * `npm run bench:notebook`: the members' notebook at scale (bench/lib/notebook.ts): 500 codes x
 * 200 notes on PostgreSQL, a chapter's notes EXPLAINed, /profile with 200 notes decrypted and listed
 * in Chromium. Figures, never pass/fail. PostgreSQL comes from BENCH_DATABASE_URL or
 * TEST_DATABASE_URL; a scratch database is made and dropped.
 */
import { notebookScale } from "./lib/notebook.ts";

const baseUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
if (!baseUrl) {
  console.error("Set BENCH_DATABASE_URL or TEST_DATABASE_URL to a PostgreSQL server (a scratch database is made there and dropped).");
  process.exit(1);
}
const figures = await notebookScale(baseUrl, (line) => console.log(line));
console.log(JSON.stringify(figures));
