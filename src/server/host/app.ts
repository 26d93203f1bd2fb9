/**
 * The local host's request handler: the same routing order Netlify applies to netlify.toml and
 * the functions' `config.path`:
 *   1. functions with a path (unless preferStatic)  2. forced redirects  3. static files
 *   4. functions with preferStatic  5. other redirects  6. the 404 page.
 * (Order checked against Netlify's own emulator by tests/parity.)
 * Custom headers from netlify.toml apply to static responses, as on Netlify; function answers
 * pass through the CDN cache stand-in (cdn-cache.ts) when one is given.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { CLIENT_IP_HEADER } from "../http/request.ts";
import { cachedAnswer, editHeaders, type CdnCache } from "./cdn-cache.ts";
import type { FunctionRoute } from "./functions.ts";
import type { NetlifyConfig } from "./netlify-config.ts";
import { staticAnswer, type PlainAnswer, type StaticFile, type StaticSite } from "./static-site.ts";
import { logFailure } from "../http/log-failure.ts";

export interface HostOptions {
  netlify: NetlifyConfig;
  functions: FunctionRoute[];
  /** The site being served; read on every request so a rebuild can swap it. */
  site: () => StaticSite;
  /** The CDN's cache of function answers (as Netlify keeps them), if any. */
  cache?: CdnCache;
  /** Proxies in front of the host whose X-Forwarded-For names the client (TRUSTED_PROXY). */
  trustedProxies?: string[];
}

/** The host as a fetch-style function: the same routing, without a socket (tests use it). */
export function createFetchHandler(options: HostOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    const response = await answer(request, options, 0);
    // As browsers ignore HSTS over plain http, the local host only sends it behind HTTPS.
    if (request.headers.get("x-forwarded-proto") === "https" || !response.headers.has("strict-transport-security")) return response;
    return editHeaders(response, (headers) => headers.delete("strict-transport-security"));
  };
}

/** The host as a node:http request listener. */
export function createHandler(options: HostOptions) {
  const fetchHandler = createFetchHandler(options);
  const fast = fastPath(options);
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      if (fast(req, res)) return;
      await send(res, await fetchHandler(toRequest(req, options.trustedProxies ?? [])), req.method === "HEAD");
    } catch (error) {
      logFailure("The local host failed to answer", error);
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end("Internal error");
    }
  };
}

/**
 * Answers `request`, routing by `url` (the request's own, or a rewrite's target). As on Netlify,
 * a function reached through a rewrite still sees the original request URL.
 */
async function answer(request: Request, options: HostOptions, depth: number, url = new URL(request.url)): Promise<Response> {
  const { netlify, functions } = options;
  const site = options.site();

  const callFunction = (route: FunctionRoute, params: Record<string, string>) => {
    const call = async () => route.handler(request, { params });
    return options.cache ? options.cache.fetch(request, call) : call();
  };

  for (const route of functions) {
    if (route.preferStatic) continue;
    const params = route.match(url, request.method);
    if (params) return callFunction(route, params);
  }

  const redirect = async (force: boolean): Promise<Response | null> => {
    for (const rule of netlify.redirects) {
      if (rule.force !== force) continue;
      const target = rule.match(url.pathname);
      if (!target) continue;
      if (target.status >= 300 && target.status < 400) {
        return new Response(null, { status: target.status, headers: { location: target.to + url.search } });
      }
      // A rewrite (200, 404...): answer with what the target answers, under the rule's status.
      if (depth > 4) break;
      const inner = await answer(request, options, depth + 1, new URL(target.to, url));
      return new Response(inner.body, { status: target.status, headers: inner.headers });
    }
    return null;
  };

  const forced = await redirect(true);
  if (forced) return forced;

  if (request.method === "GET" || request.method === "HEAD") {
    const file = site.lookup(url.pathname);
    if (file) return staticResponse(request, file, 200, netlify.headersFor(url.pathname));
  }

  for (const route of functions) {
    if (!route.preferStatic) continue;
    const params = route.match(url, request.method);
    if (params) return callFunction(route, params);
  }

  const redirected = await redirect(false);
  if (redirected) return redirected;

  const notFound = site.notFoundPage();
  if (notFound) return staticResponse(request, notFound, 404, netlify.headersFor(url.pathname));
  return new Response("Not Found", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
}

function staticResponse(request: Request, file: StaticFile, status: number, custom: Record<string, string>) {
  const plain = staticAnswer(file, status, custom, {
    ifNoneMatch: request.headers.get("if-none-match"),
    acceptEncoding: request.headers.get("accept-encoding"),
    head: false,
  });
  return new Response(plain.body && new Uint8Array(plain.body), { status: plain.status, headers: plain.headers });
}

/** How many paths the fast path remembers the routing of (then forgets them all at once). */
const MAX_REMEMBERED_ROUTES = 10_000;

/**
 * The fast path of the node:http listener, for what most requests are: a GET of a static file or
 * of an answer the CDN cache holds. Written straight to the socket, without web Request and
 * Response objects, by the same rules as `answer` (a cached answer exists only where a function
 * answered; a static file only where no function with a path and no forced redirect comes first,
 * which is remembered per path). Answers false when the request needs the full routing.
 */
function fastPath({ netlify, functions, site, cache }: HostOptions): (req: IncomingMessage, res: ServerResponse) => boolean {
  const staticFirst = new Map<string, boolean>();
  const goesToStatic = (url: URL) => {
    let known = staticFirst.get(url.pathname);
    if (known === undefined) {
      known =
        !functions.some((route) => !route.preferStatic && route.match(url, "GET")) &&
        !netlify.redirects.some((rule) => rule.force && rule.match(url.pathname));
      if (staticFirst.size >= MAX_REMEMBERED_ROUTES) staticFirst.clear();
      staticFirst.set(url.pathname, known);
    }
    return known;
  };
  return (req, res) => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const target = req.url ?? "/";
    const head = req.method === "HEAD";
    const ifNoneMatch = req.headers["if-none-match"] ?? null;
    const https = req.headers["x-forwarded-proto"] === "https";
    const hit = cache?.lookup(target);
    if (hit) {
      write(res, cachedAnswer(hit, "hit", { ifNoneMatch, acceptEncoding: req.headers["accept-encoding"] ?? null, head }), https);
      return true;
    }
    let url: URL;
    try {
      url = new URL(target, "http://host");
    } catch {
      return false;
    }
    if (url.search || !goesToStatic(url)) return false;
    const file = site().lookup(url.pathname);
    if (!file) return false;
    write(res, staticAnswer(file, 200, netlify.headersFor(url.pathname), { ifNoneMatch, acceptEncoding: req.headers["accept-encoding"] ?? null, head }), https);
    return true;
  };
}

function write(res: ServerResponse, answer: PlainAnswer, https: boolean): void {
  // As browsers ignore HSTS over plain http, the local host only sends it behind HTTPS.
  if (!https) delete answer.headers["strict-transport-security"];
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body ?? undefined);
}

/**
 * The client's address: the connection's peer, unless that peer is a trusted proxy, in which case
 * the nearest address in X-Forwarded-For that is not one of the trusted proxies.
 */
export function clientOf(peer: string | undefined, forwardedFor: string | string[] | undefined, trusted: readonly string[]): string {
  const plain = (address: string) => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");
  let client = plain(peer ?? "unknown");
  if (!trusted.includes(client) || !forwardedFor) return client;
  const hops = [forwardedFor].flat().join(",").split(",").map((hop) => plain(hop.trim())).filter(Boolean);
  while (hops.length > 0 && trusted.includes(client)) client = hops.pop()!;
  return client;
}

function toRequest(req: IncomingMessage, trustedProxies: readonly string[]): Request {
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name.startsWith(":")) continue;
    for (const one of [value].flat()) headers.append(name, one);
  }
  // As on Netlify, the client's address comes from the connection (or a trusted proxy); any value a
  // client sent is replaced.
  headers.set(CLIENT_IP_HEADER, clientOf(req.socket.remoteAddress, req.headers["x-forwarded-for"], trustedProxies));
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(url, {
    method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    duplex: "half",
  } as RequestInit);
}

async function send(res: ServerResponse, response: Response, head: boolean): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  if (head || !response.body) {
    res.writeHead(response.status, headers);
    res.end();
    return;
  }
  // A body of one chunk (a page, a JSON answer) goes out with its length in one write, as the fast
  // path's answers do; a longer one (an export, a backup) is streamed as it comes.
  const reader = response.body.getReader();
  const first = await reader.read();
  const second = first.done ? first : await reader.read();
  if (second.done) {
    if (!first.done && headers["content-length"] === undefined) headers["content-length"] = String(first.value.byteLength);
    res.writeHead(response.status, headers);
    res.end(first.done ? undefined : first.value);
    return;
  }
  res.writeHead(response.status, headers);
  res.write(first.value);
  res.write(second.value);
  for (let next = await reader.read(); !next.done; next = await reader.read()) res.write(next.value);
  res.end();
}
