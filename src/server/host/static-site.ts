/**
 * Serving a built site folder: files read once and kept in memory with their compressed copies
 * (made at build: src/server/build/precompress.ts; gzip made here for a folder built without
 * them), ETags and 304s. A new build is served by swapping in a new StaticSite, so the old one
 * keeps answering until the new one is complete.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { MIN_COMPRESS_BYTES } from "../build/precompress.ts";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".avif": "image/avif",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".webmanifest": "application/manifest+json",
};

const COMPRESSIBLE = /^(text\/|application\/(json|xml|manifest\+json)|image\/svg\+xml)/;

export interface StaticFile {
  body: Buffer;
  gzip: Buffer | null;
  brotli: Buffer | null;
  type: string;
  etag: string;
}

/** What a static file answers, as plain values (the host writes them to a socket or a Response). */
export interface PlainAnswer {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array | null;
}

/**
 * The answer for `file`: 304 for a matching If-None-Match, else the file, brotli or gzip when the
 * client takes it. `custom` headers (netlify.toml's) come on top.
 */
export function staticAnswer(file: StaticFile, status: number, custom: Record<string, string>, request: { ifNoneMatch: string | null; acceptEncoding: string | null; head: boolean }): PlainAnswer {
  const headers: Record<string, string> = {
    "content-type": file.type,
    etag: file.etag,
    "cache-control": "public, max-age=0, must-revalidate",
    vary: "Accept-Encoding",
  };
  for (const [name, value] of Object.entries(custom)) headers[name.toLowerCase()] = value;
  if (status === 200 && request.ifNoneMatch === file.etag) return { status: 304, headers, body: null };
  return encoded({ status, headers }, file, request);
}

/**
 * An answer's body in the best encoding the client takes (brotli, then gzip, then none) of those
 * at hand, with its Content-Encoding and Content-Length; none for HEAD.
 */
export function encoded(
  answer: { status: number; headers: Record<string, string> },
  bodies: { body: Uint8Array; brotli: Uint8Array | null; gzip: Uint8Array | null },
  request: { acceptEncoding: string | null; head: boolean },
): PlainAnswer {
  const accepts = request.acceptEncoding ?? "";
  const headers = { ...answer.headers };
  let body = bodies.body;
  if (bodies.brotli && /\bbr\b/.test(accepts)) {
    headers["content-encoding"] = "br";
    body = bodies.brotli;
  } else if (bodies.gzip && /\bgzip\b/.test(accepts)) {
    headers["content-encoding"] = "gzip";
    body = bodies.gzip;
  }
  headers["content-length"] = String(body.length);
  return { status: answer.status, headers, body: request.head ? null : body };
}

/** How many paths that hold no file are remembered (then forgotten at once): the web is full of probes. */
export const MAX_REMEMBERED_MISSES = 10_000;

export class StaticSite {
  private readonly files = new Map<string, StaticFile>();
  private readonly misses = new Set<string>();
  readonly dir: string;
  constructor(dir: string) {
    this.dir = dir;
  }

  /** The file a URL path names: exact file, then `{path}.html`, then `{path}/index.html`. */
  lookup(pathname: string): StaticFile | null {
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return null;
    }
    // No parent segments, no dot files (the build stamp, editor droppings), and no compressed
    // copies as files of their own.
    if (decoded.includes("\0") || decoded.split("/").some((segment) => segment.startsWith(".")) || /\.(br|gz)$/.test(decoded)) return null;
    const base = decoded.endsWith("/") ? `${decoded}index.html` : decoded;
    const candidates = [base, `${base}.html`, `${base}/index.html`];
    for (const candidate of candidates) {
      const file = this.read(candidate);
      if (file) return file;
    }
    return null;
  }

  /** The site's 404 page, if it has one. */
  notFoundPage(): StaticFile | null {
    return this.read("/404.html");
  }

  /** How many missing paths are remembered now (at most MAX_REMEMBERED_MISSES). */
  get rememberedMisses(): number {
    return this.misses.size;
  }

  private read(relative: string): StaticFile | null {
    const known = this.files.get(relative);
    if (known) return known;
    if (this.misses.has(relative)) return null;
    const full = path.join(this.dir, relative);
    let file: StaticFile | null = null;
    if (full.startsWith(this.dir + path.sep)) {
      try {
        if (fs.statSync(full).isFile()) {
          const body = fs.readFileSync(full);
          const type = TYPES[path.extname(full).toLowerCase()] ?? "application/octet-stream";
          const compressible = COMPRESSIBLE.test(type) && body.length >= MIN_COMPRESS_BYTES;
          file = {
            body,
            type,
            gzip: compressible ? (readIfThere(`${full}.gz`) ?? gzipSync(body)) : null,
            brotli: compressible ? readIfThere(`${full}.br`) : null,
            etag: `"${createHash("sha1").update(body).digest("base64url")}"`,
          };
        }
      } catch {
        file = null;
      }
    }
    if (file) {
      this.files.set(relative, file);
    } else {
      if (this.misses.size >= MAX_REMEMBERED_MISSES) this.misses.clear();
      this.misses.add(relative);
    }
    return file;
  }
}

function readIfThere(file: string): Buffer | null {
  try {
    return fs.readFileSync(file);
  } catch {
    return null;
  }
}
