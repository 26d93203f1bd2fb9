import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { precompress } from "./precompress.ts";

describe("precompress", () => {
  it("keeps each file's compressed copies by content, so a rebuild compresses only what changed", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "sb-precompress-"));
    const cache = path.join(root, "cache");
    const build = (files: Record<string, string>) => {
      const dir = fs.mkdtempSync(path.join(root, "site-"));
      for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
      return { dir, report: precompress(dir, cache) };
    };
    const page = "<p>A page of the book.</p>".repeat(100);
    const script = "console.log('the page script');".repeat(100);

    const first = build({ "a.html": page, "b.js": script, "tiny.css": "p{}" });
    expect(first.report).toMatchObject({ files: 2, reused: 0 });
    const second = build({ "a.html": `${page}<p>Changed.</p>`, "b.js": script, "tiny.css": "p{}" });
    expect(second.report).toMatchObject({ files: 2, reused: 1 });
    // Whatever the cache gave, each copy is its own file's bytes.
    for (const [name, text] of [["a.html", `${page}<p>Changed.</p>`], ["b.js", script]] as const) {
      expect(brotliDecompressSync(fs.readFileSync(path.join(second.dir, `${name}.br`))).toString()).toBe(text);
      expect(gunzipSync(fs.readFileSync(path.join(second.dir, `${name}.gz`))).toString()).toBe(text);
    }
    expect(fs.existsSync(path.join(second.dir, "tiny.css.br"))).toBe(false);
    // The cache holds the last build's copies only.
    expect(fs.readdirSync(cache)).toHaveLength(4);
  });
});
