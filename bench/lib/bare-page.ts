/**
 * The floor for a chapter's first screen (issue 45: 3): our chapter page's own HTML with every
 * <style> (its @font-face rules with it), stylesheet link, <script> and font link taken out, and
 * the links that only load scripts, styles or fonts (modulepreload, preload, prefetch): the
 * browser paints the same text unstyled from the first response and fetches nothing but its
 * images. Served as the Starlight page is (bench/lib/starlight.ts serveStatic: our static server,
 * brotli made at build), with the site's images (public/) beside it, at `/`.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { precompress } from "../../src/server/build/precompress.ts";
import { serveStatic } from "./starlight.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** `html` with its styles, scripts and fonts removed. */
export function bareHtml(html: string): string {
  return html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script\s*>/gi, "")
    .replace(/<style\b[^>]*>[\s\S]*?<\/style\s*>/gi, "")
    .replace(/<link\b[^>]*\brel=["']?(?:stylesheet|preload|modulepreload|prefetch)\b[^>]*>/gi, "");
}

export interface BarePage {
  url: string;
  /** The bare page's bytes, uncompressed and brotli. */
  bytes: number;
  brotliBytes: number;
  close(): Promise<void>;
}

/** Serves the bare version of the page at `pageUrl` (fetched now, as a browser gets it). */
export async function barePage(pageUrl: string): Promise<BarePage> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-bare-"));
  const html = bareHtml(await (await fetch(pageUrl)).text());
  fs.cpSync(path.join(ROOT, "public"), dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "index.html"), html);
  precompress(dir);
  const served = await serveStatic(dir);
  const brotli = path.join(dir, "index.html.br");
  return {
    url: `${served.url}/`,
    bytes: Buffer.byteLength(html),
    brotliBytes: fs.existsSync(brotli) ? fs.statSync(brotli).size : Buffer.byteLength(html),
    async close() {
      await served.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
