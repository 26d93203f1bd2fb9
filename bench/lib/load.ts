/** Throughput and latency with autocannon, against the product and against a bare server answering the same bytes. */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { startBare } from "./processes.ts";

export interface LoadFigures {
  rps: number;
  p50: number;
  p99: number;
}

export interface LoadCase {
  name: string;
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
}

export const DURATION_S = Number(process.env.BENCH_SECONDS || 5);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 20);

export async function measure(c: LoadCase): Promise<LoadFigures> {
  const result = await autocannon({
    url: c.url,
    method: c.method ?? "GET",
    headers: c.headers,
    body: c.body,
    connections: CONNECTIONS,
    duration: DURATION_S,
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${c.name}: ${result.non2xx} non-2xx answers and ${result.errors} errors under load`);
  }
  return { rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99 };
}

/**
 * B's requests/s over A's in `rounds` alternating rounds (A, B, A, B...), so both meet the same
 * moments of a shared machine: the median ratio and each round's.
 */
export async function pairedRatio(a: LoadCase, b: LoadCase, rounds = 3): Promise<{ median: number; rounds: number[] }> {
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const first = await measure(a);
    const second = await measure(b);
    ratios.push(Number((second.rps / first.rps).toFixed(2)));
  }
  return { median: [...ratios].sort((x, y) => x - y)[Math.floor(rounds / 2)]!, rounds: ratios };
}

/** One answer exactly as sent on the wire (no decoding), for the bare server to repeat. */
function rawAnswer(c: LoadCase): Promise<{ bytes: Buffer; type: string; encoding?: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(c.url, { method: c.method ?? "GET", headers: c.headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({
          bytes: Buffer.concat(chunks),
          type: String(response.headers["content-type"] ?? "application/octet-stream"),
          encoding: response.headers["content-encoding"],
        }),
      );
    });
    request.on("error", reject);
    request.end(c.body);
  });
}

/** The case against the product, then the same bytes from a bare node:http process. */
export async function compare(c: LoadCase): Promise<LoadFigures & { bareRps: number; ratio: number }> {
  const sample = await rawAnswer(c);
  const product = await measure(c);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sb-bare-")), "body");
  fs.writeFileSync(file, sample.bytes);
  const bare = await startBare(file, sample.type, sample.encoding);
  try {
    const floor = await measure({ ...c, url: bare.url });
    return { ...product, bareRps: floor.rps, ratio: Number((product.rps / floor.rps).toFixed(2)) };
  } finally {
    await bare.stop();
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
}
