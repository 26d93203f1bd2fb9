/**
 * The local host's stand-in for Netlify's CDN cache of function answers, honouring the same
 * headers, so a page behaves alike on both (docs/decisions/0007):
 * - only a GET answer whose `Netlify-CDN-Cache-Control` (or `CDN-Cache-Control`) is cacheable
 *   (not private or no-store, with an s-maxage or max-age above 0) and that sets no cookie is kept;
 * - it is keyed by path and query, tagged by `Netlify-Cache-Tag` (or `Cache-Tag`), and kept until
 *   it expires or a purge names one of its tags (or a new site is swapped in: a "deploy");
 * - those headers never reach the browser, as on Netlify; `Cache-Status` tells a hit from a miss.
 * An answer that was being made while a purge happened is not kept: it may hold what was purged.
 */
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { MIN_COMPRESS_BYTES } from "../build/precompress.ts";
import { encoded, type PlainAnswer } from "./static-site.ts";

export interface CachedAnswer {
  status: number;
  headers: [string, string][];
  body: Uint8Array;
  /** Compressed copies of a text answer, made once when it is kept (as Netlify's CDN compresses). */
  brotli: Uint8Array | null;
  gzip: Uint8Array | null;
  tags: Set<string>;
  expires: number;
  etag: string | null;
}

const CDN_HEADERS = ["netlify-cdn-cache-control", "cdn-cache-control", "netlify-cache-tag", "cache-tag", "netlify-vary"];

/** How long the CDN may keep an answer, in seconds (0: not at all), from its headers. */
export function cdnLifetime(headers: Headers): number {
  const policy = headers.get("netlify-cdn-cache-control") ?? headers.get("cdn-cache-control");
  if (!policy || headers.has("set-cookie")) return 0;
  const directives = new Map(
    policy.split(",").map((part) => {
      const [name, value] = part.trim().toLowerCase().split("=");
      return [name!, value] as const;
    }),
  );
  if (directives.has("private") || directives.has("no-store") || directives.has("no-cache")) return 0;
  const seconds = Number(directives.get("s-maxage") ?? directives.get("max-age") ?? 0);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
}

export class CdnCache {
  private readonly entries = new Map<string, CachedAnswer>();
  private generation = 0;
  private readonly maxEntries: number;
  private readonly clock: () => number;

  constructor({ maxEntries = 2000, clock = () => Date.now() }: { maxEntries?: number; clock?: () => number } = {}) {
    this.maxEntries = maxEntries;
    this.clock = clock;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The live answer kept for `key` (path and query), if any. */
  lookup(key: string): CachedAnswer | null {
    const cached = this.entries.get(key);
    if (!cached) return null;
    this.entries.delete(key);
    if (cached.expires <= this.clock()) return null;
    // Most recently used last: the oldest entry goes first when the cache is full.
    this.entries.set(key, cached);
    return cached;
  }

  /** Answers `request` from the cache, or from `origin` (keeping the answer when its headers allow). */
  async fetch(request: Request, origin: () => Promise<Response>): Promise<Response> {
    if (request.method !== "GET" && request.method !== "HEAD") return origin();
    const url = new URL(request.url);
    const key = url.pathname + url.search;
    const cached = this.lookup(key);
    if (cached) return answer(request, cached, "hit");
    const generation = this.generation;
    const response = await origin();
    const lifetime = request.method === "GET" ? cdnLifetime(response.headers) : 0;
    if (lifetime === 0) return withoutCdnHeaders(response, "fwd=miss");
    const headers = [...response.headers].filter(([name]) => !CDN_HEADERS.includes(name) && name !== "set-cookie");
    const body = new Uint8Array(await response.arrayBuffer());
    const compress = !response.headers.has("content-encoding") && /^(text\/|application\/json)/.test(response.headers.get("content-type") ?? "") && body.length >= MIN_COMPRESS_BYTES;
    const entry: CachedAnswer = {
      status: response.status,
      headers: compress ? varyOnEncoding(headers) : headers,
      body,
      brotli: compress ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }) : null,
      gzip: compress ? gzipSync(body) : null,
      tags: new Set(
        (response.headers.get("netlify-cache-tag") ?? response.headers.get("cache-tag") ?? "")
          .split(",")
          .map((tag) => tag.trim())
          .filter(Boolean),
      ),
      expires: this.clock() + lifetime * 1000,
      etag: response.headers.get("etag"),
    };
    if (generation === this.generation) {
      this.entries.set(key, entry);
      if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    }
    return answer(request, entry, "fwd=miss; stored");
  }

  /** Drops the answers carrying any of `tags`, or every answer when no tags are given. */
  purge(tags?: readonly string[]): void {
    this.generation++;
    if (!tags) {
      this.entries.clear();
      return;
    }
    for (const [key, entry] of this.entries) {
      if (tags.some((tag) => entry.tags.has(tag))) this.entries.delete(key);
    }
  }
}

/**
 * A kept answer as plain values: 304 for a matching If-None-Match, brotli or gzip when the client
 * takes it (the host's fast path writes these).
 */
export function cachedAnswer(entry: CachedAnswer, status: string, request: { ifNoneMatch: string | null; acceptEncoding: string | null; head: boolean }): PlainAnswer {
  const headers: Record<string, string> = Object.fromEntries(entry.headers);
  headers["cache-status"] = `"Netlify Edge"; ${status}`;
  if (entry.etag && request.ifNoneMatch === entry.etag) return { status: 304, headers, body: null };
  return encoded({ status: entry.status, headers }, entry, request);
}

function answer(request: Request, entry: CachedAnswer, status: string): Response {
  const plain = cachedAnswer(entry, status, {
    ifNoneMatch: request.headers.get("if-none-match"),
    acceptEncoding: request.headers.get("accept-encoding"),
    head: request.method === "HEAD",
  });
  return new Response(plain.body && plain.body.slice(), { status: plain.status, headers: plain.headers });
}

function withoutCdnHeaders(response: Response, status: string): Response {
  return editHeaders(response, (headers) => {
    for (const name of CDN_HEADERS) headers.delete(name);
    headers.set("cache-status", `"Netlify Edge"; ${status}`);
  });
}

/**
 * `response` with its headers edited: in place where they may be (a Response a function made),
 * else on a copy (one from fetch() or Response.redirect(), whose headers are immutable).
 */
export function editHeaders(response: Response, edit: (headers: Headers) => void): Response {
  try {
    edit(response.headers);
    return response;
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    const headers = new Headers(response.headers);
    edit(headers);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

/** The headers with Accept-Encoding added to their Vary (the answer now differs by it). */
function varyOnEncoding(headers: [string, string][]): [string, string][] {
  const vary = headers.find(([name]) => name === "vary")?.[1];
  const rest = headers.filter(([name]) => name !== "vary");
  return [...rest, ["vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding"]];
}
