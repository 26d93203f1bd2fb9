/**
 * `npm run bench:readers`: the Readers tab with 500 members reading daily for a year (182,500
 * daily rows) on PostgreSQL (bench/lib/readers-scale.ts). Figures, never pass/fail. PostgreSQL
 * comes from BENCH_DATABASE_URL or TEST_DATABASE_URL; a scratch database is made and dropped.
 */
import { readersScale } from "./lib/readers-scale.ts";

const baseUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
if (!baseUrl) {
  console.error("Set BENCH_DATABASE_URL or TEST_DATABASE_URL to a PostgreSQL server (a scratch database is made there and dropped).");
  process.exit(1);
}
const figures = await readersScale(baseUrl, (line) => console.log(line));
console.log(JSON.stringify(figures));
