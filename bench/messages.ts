/**
 * `npm run bench:messages`: the direct line at scale (bench/lib/messages.ts): the operator's inbox
 * with 500 conversations x 50 messages, and a conversation of 500 messages, on PostgreSQL, read
 * and decrypted. Figures, never pass/fail. PostgreSQL comes from BENCH_DATABASE_URL or
 * TEST_DATABASE_URL; a scratch database is made and dropped.
 */
import { messagesLine, messagesScale } from "./lib/messages.ts";

const baseUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
if (!baseUrl) {
  console.error("Set BENCH_DATABASE_URL or TEST_DATABASE_URL to a PostgreSQL server (a scratch database is made there and dropped).");
  process.exit(1);
}
const figures = await messagesScale(baseUrl, (line) => console.log(line));
console.log(messagesLine(figures));
console.log(JSON.stringify(figures));
