/**
 * The node:http listener's fast path (static files and CDN cache hits written straight to the
 * socket) answers exactly what the full routing answers: same status, headers and bytes, for
 * plain, brotli, gzip, HEAD and revalidation requests; and anything else still takes the full
 * routing (a function with a path before a static file of the same name, a query).
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { precompress } from "../build/precompress.ts";
import { cdnCacheHeaders } from "../http/cdn.ts";
import { createFetchHandler, createHandler, type HostOptions } from "./app.ts";
import { CdnCache } from "./cdn-cache.ts";
import type { FunctionRoute } from "./functions.ts";
import { readNetlifyConfig } from "./netlify-config.ts";
import { StaticSite } from "./static-site.ts";

const page = `<!doctype html><h1>Apply</h1>${"<p>Words of the page, long enough to be worth compressing.</p>".repeat(60)}`;

/** A function at `pathname` whose answers the CDN may keep; counts its calls. */
function cachedFunction(name: string, pathname: string, calls: { count: number }): FunctionRoute {
  return {
    name,
    preferStatic: false,
    match: (url) => (url.pathname === pathname ? {} : null),
    handler: () => {
      calls.count++;
      return new Response(JSON.stringify({ answer: name }), { headers: { "content-type": "application/json", etag: `"${name}"`, ...cdnCacheHeaders(["book"]) } });
    },
  };
}

describe("the local host's fast path", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-fast-"));
  const calls = { count: 0 };
  let server: http.Server;
  let base: string;
  let options: HostOptions;

  beforeAll(async () => {
    fs.writeFileSync(path.join(dir, "apply.html"), page);
    fs.writeFileSync(path.join(dir, "shadowed.html"), page);
    fs.writeFileSync(path.join(dir, "small.txt"), "tiny");
    precompress(dir);
    const site = new StaticSite(dir);
    options = {
      netlify: readNetlifyConfig(),
      functions: [cachedFunction("thing", "/api/thing", calls), cachedFunction("shadow", "/shadowed", calls)],
      site: () => site,
      cache: new CdnCache(),
    };
    server = http.createServer(createHandler(options));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The same request through the socket (fast path) and through the full routing. */
  async function both(pathname: string, asked: Record<string, string> = {}, method = "GET") {
    // fetch asks for gzip by itself unless told what to ask.
    const headers = { "accept-encoding": "identity", ...asked };
    const viaSocket = await fetch(base + pathname, { method, headers });
    const viaRouting = await createFetchHandler(options)(new Request(base + pathname, { method, headers }));
    const plain = (response: Response) => {
      const kept = Object.fromEntries([...response.headers].filter(([name]) => !["date", "connection", "keep-alive", "transfer-encoding"].includes(name)));
      return { status: response.status, headers: kept };
    };
    // fetch hands over the socket's body decoded; the routing's Response holds it as sent.
    const sent = Buffer.from(await viaRouting.arrayBuffer());
    const encoding = viaRouting.headers.get("content-encoding");
    const routingBytes = encoding === "gzip" ? gunzipSync(sent) : encoding === "br" ? brotliDecompressSync(sent) : sent;
    return { socket: plain(viaSocket), routing: plain(viaRouting), socketBytes: Buffer.from(await viaSocket.arrayBuffer()), routingBytes };
  }

  it("made brotli and gzip copies at build, and serves brotli to a client that takes it", async () => {
    expect(fs.existsSync(path.join(dir, "apply.html.br"))).toBe(true);
    expect(fs.existsSync(path.join(dir, "small.txt.br"))).toBe(false);
    const response = await new Promise<http.IncomingMessage>((resolve) => http.get(`${base}/apply`, { headers: { "accept-encoding": "br, gzip" } }, resolve));
    const chunks: Buffer[] = [];
    for await (const chunk of response) chunks.push(chunk as Buffer);
    expect(response.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(Buffer.concat(chunks)).toString()).toBe(page);
    expect(Number(response.headers["content-length"])).toBeLessThan(page.length / 5);
  });

  it("answers static files exactly as the full routing does", async () => {
    const etag = `"${(await both("/apply")).socket.headers.etag}"`.slice(1, -1);
    for (const [pathname, headers, method] of [
      ["/apply", {}, "GET"],
      ["/apply", { "accept-encoding": "gzip" }, "GET"],
      ["/apply", { "accept-encoding": "gzip, br" }, "HEAD"],
      ["/apply", { "if-none-match": etag }, "GET"],
      ["/apply.html", { "x-forwarded-proto": "https" }, "GET"],
      ["/small.txt", {}, "GET"],
    ] as const) {
      const { socket, routing, socketBytes, routingBytes } = await both(pathname, headers, method);
      expect(socket, `${method} ${pathname} ${JSON.stringify(headers)}`).toEqual(routing);
      // (A HEAD answer's body is dropped at the socket on either path.)
      const expected = method === "HEAD" ? "" : routingBytes.toString("latin1");
      expect(socketBytes.toString("latin1"), `${method} ${pathname} ${JSON.stringify(headers)}`).toBe(expected);
    }
  });

  it("keeps a compressed copy of a cached text answer and serves it to a client that takes it", async () => {
    const routing = createFetchHandler(options);
    const long = { ...cachedFunction("long", "/api/long", calls), handler: () => new Response(page, { headers: { "content-type": "text/html; charset=utf-8", ...cdnCacheHeaders(["book"]) } }) };
    options.functions.push(long);
    try {
      await routing(new Request(`${base}/api/long`));
      const response = await new Promise<http.IncomingMessage>((resolve) => http.get(`${base}/api/long`, { headers: { "accept-encoding": "br" } }, resolve));
      const chunks: Buffer[] = [];
      for await (const chunk of response) chunks.push(chunk as Buffer);
      expect(response.headers["cache-status"]).toContain("hit");
      expect(response.headers["content-encoding"]).toBe("br");
      expect(response.headers.vary).toBe("Accept-Encoding");
      expect(brotliDecompressSync(Buffer.concat(chunks)).toString()).toBe(page);
    } finally {
      options.functions.pop();
    }
  });

  it("answers a cached function answer from the cache, with 304 for its ETag, and never a file a function shadows", async () => {
    const first = await fetch(`${base}/api/thing`);
    expect(first.headers.get("cache-status")).toContain("stored");
    const before = calls.count;
    const hit = await fetch(`${base}/api/thing`);
    expect(hit.headers.get("cache-status")).toContain("hit");
    expect(await hit.json()).toEqual({ answer: "thing" });
    expect((await fetch(`${base}/api/thing`, { headers: { "if-none-match": '"thing"' } })).status).toBe(304);
    expect(calls.count).toBe(before);
    // A function with a path comes before the static file of the same name.
    expect(await (await fetch(`${base}/shadowed`)).json()).toEqual({ answer: "shadow" });
  });

  it("sends a function's one-chunk answer with its length, and streams a longer one whole", async () => {
    const streamed = ["first part, ", "second part, ", "last part."];
    const added: FunctionRoute[] = [
      { name: "one", preferStatic: false, match: (url) => (url.pathname === "/api/one" ? {} : null), handler: () => new Response(page, { headers: { "content-type": "text/html" } }) },
      {
        name: "stream",
        preferStatic: false,
        match: (url) => (url.pathname === "/api/stream" ? {} : null),
        handler: () =>
          new Response(
            new ReadableStream<Uint8Array>({
              async start(controller) {
                for (const part of streamed) {
                  controller.enqueue(new TextEncoder().encode(part));
                  await new Promise((resolve) => setTimeout(resolve, 5));
                }
                controller.close();
              },
            }),
            { headers: { "content-type": "text/plain" } },
          ),
      },
      { name: "empty", preferStatic: false, match: (url) => (url.pathname === "/api/empty" ? {} : null), handler: () => new Response("", { status: 201 }) },
    ];
    options.functions.push(...added);
    try {
      const get = (pathname: string, method = "GET") =>
        new Promise<{ headers: http.IncomingHttpHeaders; status: number; body: string }>((resolve, reject) => {
          const request = http.request(`${base}${pathname}`, { method, headers: { "accept-encoding": "identity" } }, async (response) => {
            const chunks: Buffer[] = [];
            for await (const chunk of response) chunks.push(chunk as Buffer);
            resolve({ headers: response.headers, status: response.statusCode!, body: Buffer.concat(chunks).toString() });
          });
          request.on("error", reject);
          request.end();
        });
      const one = await get("/api/one");
      expect(one.headers["content-length"]).toBe(String(Buffer.byteLength(page)));
      expect(one.headers["transfer-encoding"]).toBeUndefined();
      expect(one.body).toBe(page);
      const stream = await get("/api/stream");
      expect(stream.headers["transfer-encoding"]).toBe("chunked");
      expect(stream.body).toBe(streamed.join(""));
      const head = await get("/api/one", "HEAD");
      expect(head.status).toBe(200);
      expect(head.body).toBe("");
      const empty = await get("/api/empty");
      expect(empty.status).toBe(201);
      expect(empty.body).toBe("");
    } finally {
      options.functions.splice(-added.length);
    }
  });
});
