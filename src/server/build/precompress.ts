/**
 * Compressed copies of a built site's text files, made once at build (brotli at its best quality,
 * gzip at level 9) beside each file as `{file}.br` and `{file}.gz`, so the local host answers
 * with them at no cost per request (src/server/host/static-site.ts). Netlify's CDN compresses by
 * itself and ignores them.
 */
import fs from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

/** Files worth compressing: text, by extension. */
export const COMPRESSIBLE_EXTENSIONS = new Set([".html", ".css", ".js", ".mjs", ".json", ".xml", ".txt", ".svg", ".webmanifest"]);
/** Smaller files gain less than the bytes of the encoding header. */
export const MIN_COMPRESS_BYTES = 1024;

export function precompress(dir: string): { files: number; bytes: number; brotliBytes: number } {
  let files = 0;
  let bytes = 0;
  let brotliBytes = 0;
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !COMPRESSIBLE_EXTENSIONS.has(path.extname(entry.name).toLowerCase())) continue;
    const full = path.join(entry.parentPath, entry.name);
    const body = fs.readFileSync(full);
    if (body.length < MIN_COMPRESS_BYTES) continue;
    const brotli = brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    });
    fs.writeFileSync(`${full}.br`, brotli);
    fs.writeFileSync(`${full}.gz`, gzipSync(body, { level: 9 }));
    files++;
    bytes += body.length;
    brotliBytes += brotli.length;
  }
  return { files, bytes, brotliBytes };
}

// `node src/server/build/precompress.ts DIR`: the site builder runs it in a process of its own.
if (import.meta.main) {
  const dir = process.argv[2];
  if (!dir) throw new Error("Usage: node src/server/build/precompress.ts DIR");
  precompress(dir);
}
