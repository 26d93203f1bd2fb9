/**
 * One instance of a packed Netlify Function, run the way AWS Lambda runs it for Netlify: its own
 * Node process, started in the unpacked bundle (LAMBDA_TASK_ROOT, the working directory) with only
 * the environment functions get at run time (the parent decides it: see emulator.ts), importing
 * the bundle's entry file, whose handler Netlify's bootstrap wraps in Lambda's response streaming
 * interface (`awslambda.streamifyResponse`, `awslambda.HttpResponseStream.from`), provided here.
 * Like a Lambda instance it takes one invocation at a time: the parent sends the Lambda event
 * Netlify's proxy would send, over a local socket, and gets the streamed response back.
 *
 * What is emulated, not Netlify's: the network. The parent passes a map of hosts (api.netlify.com
 * for build hooks and cache purges) to local HTTPS servers, applied to `fetch`; and the Neon
 * driver of the bundle is pointed at a local WebSocket relay to PostgreSQL instead of Neon's proxy.
 *
 * argv: <entry file> <JSON: { hosts: Record<host, origin>, neonRelayPort?: number }>
 * Prints `listening <port> import <ms> ms` once it takes invocations.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Writable } from "node:stream";
import { pathToFileURL } from "node:url";

interface Prelude {
  statusCode: number;
  headers?: Record<string, string>;
  multiValueHeaders?: Record<string, string[]>;
}

const [entry, networkJson] = process.argv.slice(2) as [string, string];
const network = JSON.parse(networkJson) as { hosts: Record<string, string>; neonRelayPort?: number };

// The network: hosts the parent emulates.
const realFetch = globalThis.fetch;
globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
  const request = new Request(input, init);
  const url = new URL(request.url);
  const origin = network.hosts[url.host];
  if (!origin) return realFetch(request);
  const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
  return realFetch(new URL(url.pathname + url.search, origin), { method: request.method, headers: request.headers, body });
};

if (network.neonRelayPort) {
  // The bundle's own copy of the Neon driver (the one its code imports), pointed at the relay.
  const neon = (await import(pathToFileURL(path.join(path.dirname(entry), "node_modules/@neondatabase/serverless/index.mjs")).href)) as typeof import("@neondatabase/serverless");
  neon.neonConfig.wsProxy = (host, port) => `127.0.0.1:${network.neonRelayPort}/v2?address=${host}:${port}`;
  neon.neonConfig.useSecureWebSocket = false;
  neon.neonConfig.pipelineTLS = false;
  neon.neonConfig.pipelineConnect = false;
}

/** A response stream as Lambda hands one to a streaming handler. */
class ResponseStream extends Writable {
  prelude: Prelude = { statusCode: 200 };
  readonly chunks: Buffer[] = [];
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void) {
    this.chunks.push(Buffer.from(chunk));
    done();
  }
}

(globalThis as Record<string, unknown>).awslambda = {
  streamifyResponse: <T>(handler: T) => handler,
  HttpResponseStream: {
    from(stream: ResponseStream, prelude: Prelude) {
      stream.prelude = prelude;
      return stream;
    },
  },
};

type StreamingHandler = (event: unknown, stream: ResponseStream, context: Record<string, unknown>) => Promise<void>;
const importStarted = performance.now();
const { handler } = (await import(pathToFileURL(entry).href)) as { handler: StreamingHandler };
/** How long the bundle took to load: the part of a cold start that is the function's own. */
const importMs = performance.now() - importStarted;

let invocations = 0;
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const { event, clientContext } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { event: unknown; clientContext?: unknown };
    const stream = new ResponseStream();
    const context = {
      awsRequestId: `req-${process.pid}-${++invocations}`,
      functionName: process.env.AWS_LAMBDA_FUNCTION_NAME,
      getRemainingTimeInMillis: () => 30_000,
      clientContext,
      callbackWaitsForEmptyEventLoop: true,
    };
    // The response goes out when the stream ends; the invocation itself ends later, once the work
    // handed to context.waitUntil is done (a trailer tells the parent the instance is free again).
    const sent = new Promise<void>((resolve) =>
      stream.on("finish", () => {
        res.write(JSON.stringify({ prelude: stream.prelude, body: Buffer.concat(stream.chunks).toString("base64") }) + "\n");
        resolve();
      }),
    );
    res.writeHead(200, { "content-type": "application/x-ndjson" });
    handler(event, stream, context).then(
      // The stream's "finish" comes a tick after the handler ends it: the answer first, then the trailer.
      () => sent.then(() => res.end(JSON.stringify({ done: true }) + "\n")),
      (error: unknown) => {
        console.error("Invocation failed:", error);
        res.end(JSON.stringify({ error: error instanceof Error ? error.message : String(error) }) + "\n");
      },
    );
  });
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port} import ${importMs.toFixed(1)} ms\n`);
});
