/**
 * Compressed copies of a built site's text files, made once at build (brotli at its best quality,
 * gzip at level 9; kept between builds by content) beside each file as `{file}.br` and `{file}.gz`, so the local host answers
 * with them at no cost per request (src/server/host/static-site.ts). Netlify's CDN compresses by
 * itself and ignores them.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { SEARCH_INDEX_DIR } from "../../lib/static-search-index.ts";

/** Files worth compressing: text, by extension. */
export const COMPRESSIBLE_EXTENSIONS = new Set([".html", ".css", ".js", ".mjs", ".json", ".xml", ".txt", ".svg", ".webmanifest"]);
/** Smaller files gain less than the bytes of the encoding header. */
export const MIN_COMPRESS_BYTES = 1024;
/**
 * The static search index's folder: with 1,000 chapters x 10 subsections it holds 11,000 records,
 * and brotli at its best over each took longer than the rest of a build. The local host gzips each
 * file the first time it is asked for (static-site.ts).
 */
const LEFT_UNCOMPRESSED = SEARCH_INDEX_DIR;

/**
 * Writes the compressed copies of every compressible file in `dir`. With `cacheDir`, copies made
 * by an earlier build of the same bytes are taken from there (a rebuild changes a few pages; the
 * scripts, styles and most pages come out the same), and the cache keeps only this build's.
 */
export function precompress(dir: string, cacheDir?: string): { files: number; bytes: number; brotliBytes: number; reused: number } {
  let files = 0;
  let bytes = 0;
  let brotliBytes = 0;
  let reused = 0;
  const kept = new Set<string>();
  if (cacheDir) fs.mkdirSync(cacheDir, { recursive: true });
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !COMPRESSIBLE_EXTENSIONS.has(path.extname(entry.name).toLowerCase())) continue;
    const full = path.join(entry.parentPath, entry.name);
    if (path.relative(dir, full).split(path.sep)[0] === LEFT_UNCOMPRESSED) continue;
    const body = fs.readFileSync(full);
    if (body.length < MIN_COMPRESS_BYTES) continue;
    const key = cacheDir && createHash("sha256").update(body).digest("hex");
    const cached = key && path.join(cacheDir, key);
    if (cached && fs.existsSync(`${cached}.br`) && fs.existsSync(`${cached}.gz`)) {
      fs.copyFileSync(`${cached}.br`, `${full}.br`);
      fs.copyFileSync(`${cached}.gz`, `${full}.gz`);
      reused++;
    } else {
      const brotli = brotliCompressSync(body, {
        params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
      });
      fs.writeFileSync(`${full}.br`, brotli);
      fs.writeFileSync(`${full}.gz`, gzipSync(body, { level: 9 }));
      if (cached) {
        fs.copyFileSync(`${full}.br`, `${cached}.br`);
        fs.copyFileSync(`${full}.gz`, `${cached}.gz`);
      }
    }
    if (key) kept.add(key);
    files++;
    bytes += body.length;
    brotliBytes += fs.statSync(`${full}.br`).size;
  }
  if (cacheDir) {
    for (const name of fs.readdirSync(cacheDir)) if (!kept.has(name.replace(/\.(br|gz)$/, ""))) fs.rmSync(path.join(cacheDir, name), { force: true });
  }
  return { files, bytes, brotliBytes, reused };
}

// `node src/server/build/precompress.ts DIR [CACHE_DIR]`: the site builder runs it in a process of its own.
if (import.meta.main) {
  const [dir, cacheDir] = process.argv.slice(2);
  if (!dir) throw new Error("Usage: node src/server/build/precompress.ts DIR [CACHE_DIR]");
  precompress(dir, cacheDir);
}
