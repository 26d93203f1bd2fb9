/**
 * `npm run bench:locked`: the locked chapter page (signed in) against the cached open chapter page,
 * uncompressed, on PostgreSQL, in the same run (issue 20: 7). Prints requests/s of each and the ratio,
 * ROUNDS times (default 3) after a warm-up. BENCH_SECONDS and BENCH_CONNECTIONS set the load.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { seed } from "../src/server/content/seed.ts";
import { openDatabase } from "../src/server/db/client.ts";
import { issueAccessCode } from "../src/server/repositories/access-codes.ts";
import { createScratchDatabase } from "../tests/support/databases.ts";
import { startProduct } from "../tests/support/product-server.ts";
import { measure } from "./lib/load.ts";

const base = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
const embedded = process.env.DRIVER === "pglite";
if (!base && !embedded) throw new Error("Set BENCH_DATABASE_URL or TEST_DATABASE_URL to a PostgreSQL database, or DRIVER=pglite.");
const rounds = Number(process.env.ROUNDS || 3);
const work = fs.mkdtempSync(path.join(os.tmpdir(), "sb-locked-"));
const scratch = embedded ? { url: "", drop: async () => {} } : await createScratchDatabase(base!);
try {
  const handle = await (embedded ? openDatabase({ driver: "pglite", dataDir: work }) : openDatabase({ driver: "pg", url: scratch.url }));
  await handle.migrate();
  await seed(handle.db);
  const code = await issueAccessCode(handle.db, { level: "Mastermind" });
  await handle.close();
  const server = await startProduct({ DATABASE_URL: scratch.url, DATA_DIR: work, SITE_DIR: path.join(work, "site") });
  try {
    const list = (await (await fetch(`${server.url}/api/chapters`)).json()) as Array<{ slug: string; level: string }>;
    const open = `${server.url}/${list.find((c) => c.level === "Operator")!.slug}`;
    const locked = `${server.url}/${list.find((c) => c.level === "Mastermind")!.slug}`;
    const signIn = await fetch(`${server.url}/api/auth/validate`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(code) });
    const cookie = signIn.headers.getSetCookie()[0]!.split(";")[0]!;
    await measure({ name: "warm-up", url: locked, headers: { cookie } });
    // The server's own CPU time per request (user and system), steadier than requests/s on a shared machine.
    const cpu = () => {
      const fields = fs.readFileSync(`/proc/${server.child.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      return (Number(fields[11]) + Number(fields[12])) * 10_000; // clock ticks (100/s) to µs
    };
    const perRequest = async (c: Parameters<typeof measure>[0]) => {
      const before = cpu();
      const figures = await measure(c);
      return { ...figures, us: Math.round((cpu() - before) / (figures.rps * Number(process.env.BENCH_SECONDS || 5))) };
    };
    for (let round = 1; round <= rounds; round++) {
      const a = process.env.ONLY === "locked" ? { rps: NaN, p99: NaN, us: NaN } : await perRequest({ name: "open", url: open });
      const b = process.env.ONLY === "open" ? { rps: NaN, p99: NaN, us: NaN } : await perRequest({ name: "locked", url: locked, headers: { cookie } });
      console.log(`round ${round}: open ${a.rps}/s (${a.us} µs CPU each, p99 ${a.p99} ms), locked ${b.rps}/s (${b.us} µs, p99 ${b.p99} ms): ${(b.rps / a.rps).toFixed(2)}`);
    }
  } finally {
    await server.stop();
  }
} finally {
  await scratch.drop();
  fs.rmSync(work, { recursive: true, force: true });
}
