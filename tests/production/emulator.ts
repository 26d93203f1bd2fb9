/**
 * Netlify, as far as a deploy of this site meets it, for the production check: packed functions
 * run as Lambda instances (lambda-runtime.ts, two or more per function, a request to whichever is
 * idle, in turn), behind the routing of netlify.toml and each function's routes from the bundler's
 * manifest, a CDN cache of function answers (Netlify-CDN-Cache-Control, cache tags), the purge API
 * and build hooks of api.netlify.com (over HTTPS), and Netlify Blobs (@netlify/blobs' own server).
 *
 * The routing and the CDN cache are the local host's own (src/server/host): the parity test runs
 * the same routing against Netlify's emulator, and the cache follows Netlify's documented rules.
 * What reaches a function is what Netlify's proxy sends: a Lambda event (the request, its client
 * address and deploy context as x-nf-* headers, the Blobs and purge credentials), and the only
 * environment is what functions get at run time (see `runtimeEnvironment`).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { BlobsServer } from "@netlify/blobs/server";
import { createFetchHandler } from "../../src/server/host/app.ts";
import { CdnCache } from "../../src/server/host/cdn-cache.ts";
import type { FunctionRoute } from "../../src/server/host/functions.ts";
import { readNetlifyConfig } from "../../src/server/host/netlify-config.ts";
import { StaticSite } from "../../src/server/host/static-site.ts";
import type { PackedFunction } from "./pack.ts";

export const SITE_URL = "https://book.example";
export const SITE_ID = "5b1c6c2e-3f0a-4b8e-9d44-production-check";
export const PURGE_TOKEN = "purge-token-of-the-production-check";
export const BUILD_HOOK_URL = "https://api.netlify.com/build_hooks/production-check";
/** Netlify's limit on a buffered request or response payload. */
export const PAYLOAD_LIMIT = 6 * 1024 * 1024;

export const LAMBDA_RUNTIME = path.join(import.meta.dirname, "lambda-runtime.ts");
const INSTANCES_PER_FUNCTION = 2;

export interface EmulatorOptions {
  functions: PackedFunction[];
  /** The built site (the publish folder). */
  siteDir: string;
  /** The variables set in the Netlify UI with the Functions scope. */
  variables: Record<string, string>;
  /** Run the functions' Neon driver through this WebSocket relay (else they use `pg`). */
  neonRelayPort?: number;
  /** The deploy context the functions belong to. */
  deployContext?: string;
  /** How many instances a function starts with at its first request (2 unless said). */
  instancesPerFunction?: number;
}

export interface NetlifyEmulator {
  /** A request to the deployed site, as a browser at SITE_URL would make it (from address `ip`). */
  fetch(pathname: string, init?: RequestInit & { ip?: string }): Promise<Response>;
  /** Calls made to the build hook, and cache purges made through the API (their tags). */
  readonly buildHookCalls: number;
  readonly purges: string[][];
  /** Every call to the purge API, those it refused included. */
  readonly purgeRequests: number;
  /** Makes the purge API answer `status` (a 5xx: it is down) to every call; null: it works again. */
  failPurges(status: number | null): void;
  /** The CDN's cache of function answers. */
  readonly cache: CdnCache;
  /** Runs a scheduled function as Netlify's scheduler does (a POST with its next run); it has no address of its own. */
  runScheduled(name: string): Promise<Response>;
  /** How many instances of a function have run. */
  instances(name: string): number;
  /** How many requests each function has been invoked for, by name (CDN hits and static files invoke none). */
  invocations(): Record<string, number>;
  /** Everything the function instances wrote to their logs. */
  logs(): string;
  close(): Promise<void>;
}

/**
 * The environment of a function instance: what AWS Lambda defines for every function (its
 * documented runtime variables), the site's read-only variables Netlify adds (URL, SITE_ID,
 * SITE_NAME), and the variables set in the UI with the Functions scope. Nothing else: no NETLIFY,
 * no CONTEXT, nothing from netlify.toml. One addition that is the test's plumbing, not Netlify's:
 * NODE_EXTRA_CA_CERTS, so the emulated api.netlify.com's certificate is trusted.
 */
export function runtimeEnvironment(fn: PackedFunction, variables: Record<string, string>, certificate: string): Record<string, string> {
  return {
    AWS_LAMBDA_FUNCTION_NAME: fn.name,
    AWS_LAMBDA_FUNCTION_VERSION: "$LATEST",
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: "1024",
    AWS_REGION: "us-east-2",
    AWS_DEFAULT_REGION: "us-east-2",
    AWS_EXECUTION_ENV: `AWS_Lambda_${fn.runtimeVersion ?? "nodejs"}`,
    LAMBDA_TASK_ROOT: fn.dir,
    LAMBDA_RUNTIME_DIR: "/var/runtime",
    LANG: "en_US.UTF-8",
    TZ: ":UTC",
    PATH: "/usr/local/bin:/usr/bin:/bin",
    URL: SITE_URL,
    SITE_ID,
    SITE_NAME: "system-book",
    ...variables,
    NODE_EXTRA_CA_CERTS: certificate,
  };
}

export async function startNetlifyEmulator(options: EmulatorOptions): Promise<NetlifyEmulator> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "sb-netlify-"));
  const { key, cert } = selfSignedCertificate(work);
  const cache = new CdnCache();
  const purges: string[][] = [];
  let buildHookCalls = 0;
  let purgeRequests = 0;
  let purgeFailure: number | null = null;
  let logs = "";

  // api.netlify.com: build hooks and the purge API.
  const api = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.method === "POST" && req.url === new URL(BUILD_HOOK_URL).pathname) {
        buildHookCalls++;
        res.writeHead(200).end();
      } else if (req.method === "POST" && req.url === "/api/v1/purge") {
        purgeRequests++;
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as { cache_tags?: string[]; site_id?: string };
        if (req.headers.authorization !== `Bearer ${PURGE_TOKEN}` || body.site_id !== SITE_ID) {
          res.writeHead(401).end();
          return;
        }
        if (purgeFailure !== null) {
          res.writeHead(purgeFailure).end("The purge API is down (production check).");
          return;
        }
        purges.push(body.cache_tags ?? []);
        cache.purge(body.cache_tags?.length ? body.cache_tags : undefined);
        res.writeHead(202).end();
      } else {
        res.writeHead(404).end();
      }
    });
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  const apiOrigin = `https://127.0.0.1:${(api.address() as AddressInfo).port}`;

  const blobsToken = "blobs-token-of-the-production-check";
  const blobs = new BlobsServer({ directory: path.join(work, "blobs"), token: blobsToken });
  const { port: blobsPort } = await blobs.start();
  const blobsContext = Buffer.from(
    JSON.stringify({ url: `http://127.0.0.1:${blobsPort}`, url_uncached: `http://127.0.0.1:${blobsPort}`, token: blobsToken, primary_region: "us-east-2" }),
  ).toString("base64");

  const network = JSON.stringify({ hosts: { "api.netlify.com": apiOrigin }, neonRelayPort: options.neonRelayPort });
  const pools = new Map(
    options.functions.map((fn) => [
      fn.name,
      new FunctionPool(fn, runtimeEnvironment(fn, options.variables, cert), network, (text) => (logs += text), options.instancesPerFunction ?? INSTANCES_PER_FUNCTION),
    ]),
  );
  const deployContext = options.deployContext ?? "production";
  const invocations: Record<string, number> = {};

  const routes: FunctionRoute[] = options.functions.map((fn) => {
    const patterns = fn.routes.length > 0 ? fn.routes : [{ pattern: `/.netlify/functions/${fn.name}`, literal: `/.netlify/functions/${fn.name}` }];
    const excluded = fn.excludedRoutes.map(routeMatcher);
    const matchers = patterns.map((route) => ({ route, test: routeMatcher(route), pattern: new URLPattern({ pathname: route.pattern }) }));
    const find = (url: URL, method: string) => {
      if (excluded.some((test) => test(url.pathname))) return null;
      return (
        matchers.find(
          ({ route, test }) => test(url.pathname) && (!("methods" in route) || !route.methods?.length || route.methods.includes(method)),
        ) ?? null
      );
    };
    return {
      name: fn.name,
      preferStatic: patterns.some((route) => "prefer_static" in route && route.prefer_static === true),
      match(url, method) {
        const found = find(url, method);
        if (!found) return null;
        const groups = found.pattern.exec({ pathname: url.pathname })?.pathname.groups ?? {};
        return Object.fromEntries(Object.entries(groups).filter((entry): entry is [string, string] => entry[1] !== undefined));
      },
      async handler(request) {
        const found = find(new URL(request.url), request.method);
        const event = await lambdaEvent(request, found?.route.pattern ?? "", { blobsContext, deployContext });
        invocations[fn.name] = (invocations[fn.name] ?? 0) + 1;
        if (JSON.stringify(event).length > PAYLOAD_LIMIT) {
          return new Response("Payload Too Large", { status: 413, headers: { "content-type": "text/plain" } });
        }
        return pools.get(fn.name)!.invoke(event);
      },
    };
  });

  const site = new StaticSite(options.siteDir);
  const gateway = createFetchHandler({ netlify: readNetlifyConfig(), functions: routes, site: () => site, cache });

  return {
    fetch(pathname, init = {}) {
      const headers = new Headers(init.headers);
      // Netlify's proxy sets the client's address (replacing anything the client sent) and the scheme.
      headers.set("x-nf-client-connection-ip", init.ip ?? "203.0.113.50");
      headers.set("x-forwarded-proto", "https");
      return gateway(new Request(new URL(pathname, SITE_URL), { ...init, headers, redirect: "manual" }));
    },
    get buildHookCalls() {
      return buildHookCalls;
    },
    purges,
    get purgeRequests() {
      return purgeRequests;
    },
    failPurges(status) {
      purgeFailure = status;
    },
    cache,
    async runScheduled(name) {
      // What Netlify's scheduler sends (Functions v2): a POST whose body names the next run.
      const request = new Request(new URL(`/.netlify/functions/${name}`, SITE_URL), {
        method: "POST",
        headers: { "user-agent": "Netlify Clockwork", "x-nf-event": "schedule", "content-type": "application/json" },
        body: JSON.stringify({ next_run: new Date(Date.now() + 15 * 60_000).toISOString() }),
      });
      const pool = pools.get(name);
      if (!pool) throw new Error(`No function named ${name}.`);
      invocations[name] = (invocations[name] ?? 0) + 1;
      return pool.invoke(await lambdaEvent(request, "", { blobsContext, deployContext }));
    },
    instances: (name) => pools.get(name)?.started ?? 0,
    invocations: () => ({ ...invocations }),
    logs: () => logs,
    async close() {
      await Promise.all([...pools.values()].map((pool) => pool.close()));
      await new Promise((resolve) => api.close(resolve));
      await blobs.stop();
      fs.rmSync(work, { recursive: true, force: true });
    },
  };
}

type ManifestRoute = PackedFunction["routes"][number] | PackedFunction["excludedRoutes"][number];

function routeMatcher(route: ManifestRoute): (pathname: string) => boolean {
  if ("literal" in route) return (pathname) => pathname === route.literal || pathname === `${route.literal}/`;
  const expression = new RegExp(route.expression);
  return (pathname) => expression.test(pathname);
}

const TEXT_BODY = /^(text\/|application\/(json|x-www-form-urlencoded|xml|javascript))/i;

/** The Lambda event Netlify's proxy sends a Functions v2 handler. */
async function lambdaEvent(request: Request, route: string, { blobsContext, deployContext }: { blobsContext: string; deployContext: string }) {
  const url = new URL(request.url);
  const headers: Record<string, string> = Object.fromEntries(request.headers);
  Object.assign(headers, {
    "x-nf-site-id": SITE_ID,
    "x-nf-deploy-id": "deploy-of-the-production-check",
    "x-nf-deploy-context": deployContext,
    "x-nf-deploy-published": "true",
    "x-nf-request-id": `request-${Math.random().toString(36).slice(2)}`,
  });
  const bytes = request.method === "GET" || request.method === "HEAD" ? null : Buffer.from(await request.arrayBuffer());
  const binary = bytes !== null && !TEXT_BODY.test(request.headers.get("content-type") ?? "");
  return {
    rawUrl: url.href,
    rawQuery: url.search.slice(1),
    path: url.pathname,
    httpMethod: request.method,
    headers,
    body: bytes ? bytes.toString(binary ? "base64" : "utf8") : null,
    isBase64Encoded: binary,
    route,
    blobs: blobsContext,
    purgeAPIToken: PURGE_TOKEN,
    flags: {},
  };
}

interface Instance {
  child: ChildProcess;
  port: number;
  busy: boolean;
}

/**
 * The instances of one function: two (or `initial`) from its first request, each taking one
 * invocation at a time, in turn; when all are busy another starts, as Lambda scales out.
 */
class FunctionPool {
  started = 0;
  private readonly instances: Promise<Instance>[] = [];
  private next = 0;
  private readonly fn: PackedFunction;
  private readonly env: Record<string, string>;
  private readonly network: string;
  private readonly log: (text: string) => void;
  private readonly initial: number;

  constructor(fn: PackedFunction, env: Record<string, string>, network: string, log: (text: string) => void, initial: number) {
    this.fn = fn;
    this.env = env;
    this.network = network;
    this.log = log;
    this.initial = initial;
  }

  async invoke(event: unknown): Promise<Response> {
    const instance = await this.acquire();
    return new Promise<Response>((resolve, reject) => {
      const request = http.request({ host: "127.0.0.1", port: instance.port, method: "POST" }, (res) => {
        let buffer = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          buffer += chunk;
          let newline: number;
          while ((newline = buffer.indexOf("\n")) >= 0) {
            const message = JSON.parse(buffer.slice(0, newline)) as {
              prelude?: { statusCode: number; headers?: Record<string, string>; multiValueHeaders?: Record<string, string[]> };
              body?: string;
              error?: string;
              done?: boolean;
            };
            buffer = buffer.slice(newline + 1);
            if (message.prelude) resolve(toResponse(message.prelude, message.body ?? ""));
            if (message.error) resolve(new Response(`Function crashed: ${message.error}`, { status: 500 }));
          }
        });
        res.on("end", () => {
          this.release(instance);
          // (No effect when the answer came.) An invocation that ended without one is a crash.
          resolve(new Response("The function ended without an answer.", { status: 502 }));
        });
        res.on("error", reject);
      });
      request.on("error", reject);
      request.end(JSON.stringify({ event, clientContext: { custom: {} } }));
    });
  }

  private async acquire(): Promise<Instance> {
    if (this.instances.length === 0) for (let i = 0; i < this.initial; i++) this.instances.push(this.spawn());
    const all = await Promise.all(this.instances);
    for (let i = 0; i < all.length; i++) {
      const candidate = all[(this.next + i) % all.length]!;
      if (!candidate.busy) {
        this.next = (this.next + i + 1) % all.length;
        candidate.busy = true;
        return candidate;
      }
    }
    // Every instance is busy: Lambda starts another one.
    const fresh = this.spawn();
    this.instances.push(fresh);
    const instance = await fresh;
    instance.busy = true;
    return instance;
  }

  private release(instance: Instance): void {
    instance.busy = false;
  }

  private spawn(): Promise<Instance> {
    this.started++;
    const child = spawn(process.execPath, [LAMBDA_RUNTIME, this.fn.entry, this.network], {
      cwd: this.fn.dir,
      env: this.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    return new Promise((resolve, reject) => {
      let output = "";
      const onData = (chunk: Buffer) => {
        const text = chunk.toString();
        this.log(`[${this.fn.name}] ${text}`);
        output += text;
        const match = /listening (\d+)/.exec(output);
        if (match) {
          child.stdout!.off("data", onData);
          child.stdout!.on("data", (more: Buffer) => this.log(`[${this.fn.name}] ${more}`));
          resolve({ child, port: Number(match[1]), busy: false });
        }
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", (chunk: Buffer) => this.log(`[${this.fn.name}] ${chunk}`));
      child.once("exit", (code) => reject(new Error(`${this.fn.name} exited with ${code} before it listened:\n${output}`)));
    });
  }

  async close(): Promise<void> {
    const all = await Promise.allSettled(this.instances);
    for (const result of all) if (result.status === "fulfilled") result.value.child.kill("SIGKILL");
  }
}

function toResponse(prelude: { statusCode: number; headers?: Record<string, string>; multiValueHeaders?: Record<string, string[]> }, body: string): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(prelude.headers ?? {})) headers.set(name, value);
  for (const [name, values] of Object.entries(prelude.multiValueHeaders ?? {})) {
    headers.delete(name);
    for (const value of values) headers.append(name, value);
  }
  const bytes = Buffer.from(body, "base64");
  const empty = [101, 204, 205, 304].includes(prelude.statusCode);
  return new Response(empty ? null : new Uint8Array(bytes), { status: prelude.statusCode, headers });
}

/** A certificate for 127.0.0.1 (the emulated api.netlify.com), made with openssl. */
function selfSignedCertificate(dir: string): { key: string; cert: string } {
  const key = path.join(dir, "key.pem");
  const cert = path.join(dir, "cert.pem");
  execFileSync("openssl", [
    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
    "-keyout", key, "-out", cert,
  ], { stdio: "ignore" });
  return { key, cert };
}
