/**
 * `npm run bench:scan`: many Mental Operating System Scans at once against the real server
 * (`npm start`'s entry point) on PostgreSQL, each a session, 15 answers (some changed and sent
 * twice, as a reader going back would) and the completion. Prints scans per second and p50/p99
 * per request, then reads the database to check that every answer sent is stored exactly once
 * with the last value sent, and that every score matches the server-side scoring.
 *
 * Loopback only, bounded in count and time. PostgreSQL comes from BENCH_DATABASE_URL or
 * TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres); a scratch database is
 * created for the run and dropped afterwards.
 *
 * Session creation is limited to 30 per client address per 10 minutes, so the scans are spread
 * over several loopback source addresses (127.0.0.2, 127.0.0.3...), each staying under the
 * limit: the limit is measured as it runs in production, not switched off.
 *
 *   BENCH_SCANS        scans in total (default 300, at most 3000)
 *   BENCH_CONCURRENCY  scans in flight at once (default 25, at most 200)
 *   BENCH_MAX_SECONDS  no new scan starts after this (default 120)
 *   BENCH_PORT         the server's port (default 4530)
 */
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import pg from "pg";
import { QUESTION_NUMBERS, ANSWERS, type Answer, type Answers } from "../src/lib/assessment/model.ts";
import { scoreAnswers } from "../src/lib/assessment/scoring.ts";
import { loadAssessment } from "../src/server/assessment/content.ts";
import { createScratchDatabase } from "../tests/support/databases.ts";
import { startProduct, type ProductServer } from "../tests/support/product-server.ts";

const root = path.resolve(import.meta.dirname, "..");
const bounded = (name: string, fallback: number, max: number) => Math.min(max, Math.max(1, Number(process.env[name] || fallback)));
const SCANS = bounded("BENCH_SCANS", 300, 3000);
const CONCURRENCY = bounded("BENCH_CONCURRENCY", 25, 200);
const MAX_SECONDS = bounded("BENCH_MAX_SECONDS", 120, 600);
const PORT = bounded("BENCH_PORT", 4530, 65535);
const PER_ADDRESS = 25; // under the 30-per-10-minutes session limit
const BASE_URL = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";

type Kind = "session" | "response" | "complete";
const latencies: Record<Kind, number[]> = { session: [], response: [], complete: [] };
const failures: string[] = [];

interface Scan {
  id: string;
  /** The last answer sent per question. */
  answers: Answers;
  answersSent: number;
  totalScore: number;
}

const agents = new Map<string, http.Agent>();
function agentFor(address: string): http.Agent {
  let agent = agents.get(address);
  if (!agent) {
    agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    agents.set(address, agent);
  }
  return agent;
}

/** One POST from `address`, timed; answers status and parsed body. */
function post(kind: Kind, address: string, pathname: string, body: unknown): Promise<{ status: number; data: unknown }> {
  const payload = Buffer.from(JSON.stringify(body));
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port: PORT,
        path: pathname,
        method: "POST",
        localAddress: address,
        agent: agentFor(address),
        headers: { "content-type": "application/json", "content-length": payload.length },
        timeout: 30_000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          latencies[kind].push(performance.now() - started);
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({ status: response.statusCode ?? 0, data: text ? JSON.parse(text) : null });
        });
      },
    );
    request.on("timeout", () => request.destroy(new Error("timed out")));
    request.on("error", reject);
    request.end(payload);
  });
}

const pick = (): Answer => ANSWERS[Math.floor(Math.random() * ANSWERS.length)]!;

async function runScan(index: number): Promise<Scan | null> {
  const address = `127.0.0.${2 + Math.floor(index / PER_ADDRESS)}`;
  const session = await post("session", address, "/api/assessment/session", {});
  if (session.status !== 201) {
    failures.push(`session: ${session.status} ${JSON.stringify(session.data)}`);
    return null;
  }
  const id = (session.data as { id: string }).id;
  const answers: Answers = {};
  let answersSent = 0;
  // One reader in four goes back and changes an earlier answer.
  const changeAt = index % 4 === 0 ? 1 + (index % 14) : 0;
  for (const n of QUESTION_NUMBERS) {
    const sends = n === changeAt ? [pick(), pick()] : [pick()];
    for (const answer of sends) {
      const saved = await post("response", address, "/api/assessment/response", { sessionId: id, questionNumber: n, answer });
      answersSent++;
      if (saved.status !== 200) failures.push(`response: ${saved.status} ${JSON.stringify(saved.data)}`);
      else answers[n] = answer;
    }
  }
  const done = await post("complete", address, `/api/assessment/session/${id}/complete`, { name: `Bench ${index}`, email: `bench${index}@example.com` });
  if (done.status !== 200) {
    failures.push(`complete: ${done.status} ${JSON.stringify(done.data)}`);
    return null;
  }
  return { id, answers, answersSent, totalScore: (done.data as { totalScore: number }).totalScore };
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function startServer(url: string, dataDir: string): Promise<ProductServer> {
  return startProduct({ PORT: String(PORT), DATABASE_URL: url, DATA_DIR: dataDir, SITE_DIR: path.join(dataDir, "site") });
}

async function verify(url: string, scans: Scan[]) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ session_id: string; question_number: number; answer: string }>(
      "SELECT session_id, question_number, answer FROM assessment_responses",
    );
    const { rows: sessions } = await client.query<{ id: string; completed: string; score: number | null }>(
      "SELECT id, completed, score FROM assessment_sessions",
    );
    const stored = new Map<string, string[]>();
    for (const row of rows) {
      const key = `${row.session_id}/${row.question_number}`;
      stored.set(key, [...(stored.get(key) ?? []), row.answer]);
    }
    const content = loadAssessment();
    let lost = 0;
    let duplicated = 0;
    let wrongValue = 0;
    let wrongScore = 0;
    const byId = new Map(sessions.map((s) => [s.id, s]));
    for (const scan of scans) {
      for (const n of QUESTION_NUMBERS) {
        const values = stored.get(`${scan.id}/${n}`) ?? [];
        if (values.length === 0) lost++;
        if (values.length > 1) duplicated += values.length - 1;
        if (values.length > 0 && values.at(-1) !== scan.answers[n]) wrongValue++;
      }
      const session = byId.get(scan.id);
      const expected = scoreAnswers(content, scan.answers).totalScore;
      if (session?.completed !== "true" || session.score !== expected || scan.totalScore !== expected) wrongScore++;
    }
    return { storedRows: rows.length, sessions: sessions.length, lost, duplicated, wrongValue, wrongScore };
  } finally {
    await client.end();
  }
}

const scratch = await createScratchDatabase(BASE_URL);
const dataDir = path.join(root, ".data", "bench-scan");
fs.mkdirSync(dataDir, { recursive: true });
let server: ProductServer | undefined;
let exitCode = 0;
try {
  console.log(`Starting the server on PostgreSQL (${new URL(scratch.url).pathname.slice(1)})...`);
  server = await startServer(scratch.url, dataDir);
  console.log(`Running ${SCANS} scans, ${CONCURRENCY} at a time (a session, 15 answers or more, a completion each)...`);
  const scans: Scan[] = [];
  let next = 0;
  const started = performance.now();
  const deadline = Date.now() + MAX_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < SCANS && Date.now() < deadline) {
        const scan = await runScan(next++).catch((error: Error) => {
          failures.push(`network: ${error.message}`);
          return null;
        });
        if (scan) scans.push(scan);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const all = [...latencies.session, ...latencies.response, ...latencies.complete];
  const check = await verify(scratch.url, scans);
  const answersSent = scans.reduce((sum, s) => sum + s.answersSent, 0);
  const results = {
    scans: scans.length,
    started: next,
    concurrency: CONCURRENCY,
    seconds: Number(seconds.toFixed(1)),
    scansPerSecond: Number((scans.length / seconds).toFixed(1)),
    requests: all.length,
    requestsPerSecond: Math.round(all.length / seconds),
    p50ms: Number(percentile(all, 50).toFixed(1)),
    p99ms: Number(percentile(all, 99).toFixed(1)),
    byKind: Object.fromEntries(
      (Object.keys(latencies) as Kind[]).map((kind) => [
        kind,
        { n: latencies[kind].length, p50ms: Number(percentile(latencies[kind], 50).toFixed(1)), p99ms: Number(percentile(latencies[kind], 99).toFixed(1)) },
      ]),
    ),
    answersSent,
    failures: failures.length,
    ...check,
  };
  console.log(`
Scans completed     ${results.scans} of ${SCANS} in ${results.seconds} s (${CONCURRENCY} at once)
Scans per second    ${results.scansPerSecond}   (${results.requestsPerSecond} requests/s)
Per request         p50 ${results.p50ms} ms   p99 ${results.p99ms} ms   (${results.requests} requests)
  session           p50 ${results.byKind.session!.p50ms} ms   p99 ${results.byKind.session!.p99ms} ms
  response          p50 ${results.byKind.response!.p50ms} ms   p99 ${results.byKind.response!.p99ms} ms
  complete          p50 ${results.byKind.complete!.p50ms} ms   p99 ${results.byKind.complete!.p99ms} ms
Answers sent        ${answersSent} (incl. changed answers), rows stored ${check.storedRows}
Lost answers        ${check.lost}
Duplicated answers  ${check.duplicated}
Wrong stored value  ${check.wrongValue}
Wrong scores        ${check.wrongScore}
Failed requests     ${failures.length}${failures.length ? `  e.g. ${failures[0]}` : ""}`);
  fs.mkdirSync(path.join(root, "bench", "out"), { recursive: true });
  fs.writeFileSync(path.join(root, "bench", "out", "scan-load.json"), `${JSON.stringify(results, null, 2)}\n`);
  if (check.lost || check.duplicated || check.wrongValue || check.wrongScore || failures.length || scans.length < SCANS) exitCode = 1;
} finally {
  for (const agent of agents.values()) agent.destroy();
  if (server) {
    await server.stop();
  }
  await scratch.drop();
}
process.exit(exitCode);
