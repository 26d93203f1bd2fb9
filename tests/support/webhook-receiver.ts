/**
 * A local webhook receiver (node:http) for tests: records every request (headers and raw body)
 * and answers with the next status of a script (then `otherwise`), optionally after a delay.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** The statuses to answer next, in order; then `otherwise`. */
  script: number[];
  otherwise: number;
  delayMs: number;
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const receiver = { received: [] as Received[], script: [] as number[], otherwise: 200, delayMs: 0 } as Receiver;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      receiver.received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
      const status = receiver.script.shift() ?? receiver.otherwise;
      setTimeout(() => response.writeHead(status, { "content-type": "text/plain" }).end("ok"), receiver.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  receiver.waitFor = async (count, timeoutMs = 5000) => {
    const until = Date.now() + timeoutMs;
    while (receiver.received.length < count) {
      if (Date.now() > until) throw new Error(`expected ${count} webhook requests, got ${receiver.received.length}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
