/**
 * The comparison issues 13 and 20 ask for: the first Operator chapter of the seed book built with
 * Starlight, Astro's docs theme, in the same run, and served by the same static server as ours
 * (StaticSite, brotli made at build). The page holds the whole chapter, as our reader gets it:
 * its opening text, then each subsection under its numbered heading with its photo (the same
 * files); the other chapters of the level are pages in its sidebar, as our rail lists them.
 * Starlight is installed once into bench/.starlight (git-ignored), never into the project.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { precompress } from "../../src/server/build/precompress.ts";
import { StaticSite, staticAnswer } from "../../src/server/host/static-site.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const DIR = path.join(ROOT, "bench", ".starlight");
const STARLIGHT_VERSION = "^0.42.0";

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: DIR, encoding: "utf8", env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1" } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed:\n${result.stdout}\n${result.stderr}`);
}

/** Starlight and the project's own Astro version, installed once. */
function install(): void {
  const astro = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).dependencies.astro as string;
  const manifest = `${JSON.stringify({ name: "starlight-comparison", private: true, type: "module", dependencies: { astro, "@astrojs/starlight": STARLIGHT_VERSION } }, null, 2)}\n`;
  const manifestPath = path.join(DIR, "package.json");
  if (fs.existsSync(path.join(DIR, "node_modules", "@astrojs", "starlight")) && fs.readFileSync(manifestPath, "utf8") === manifest) return;
  fs.mkdirSync(DIR, { recursive: true });
  fs.writeFileSync(manifestPath, manifest);
  run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"]);
}

/** A Markdown file of content/book: its front matter's fields, and its body. */
function parse(file: string): { fields: Record<string, string>; body: string } {
  const text = fs.readFileSync(file, "utf8");
  const [, front = "", body = text] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text) ?? [];
  const fields = Object.fromEntries([...front.matchAll(/^(\w+):\s*(.+)$/gm)].map((m) => [m[1]!, m[2]!.trim()]));
  return { fields, body };
}

/**
 * A chapter folder of content/book as one Starlight page: the chapter's text, then each subsection
 * under its two-digit number and title, with its photo, as our chapter page shows them.
 */
function chapterPage(dir: string, order: number): string {
  const chapter = parse(path.join(dir, "chapter.md"));
  const parts = fs
    .readdirSync(dir)
    .filter((file) => file !== "chapter.md" && file.endsWith(".md"))
    .sort()
    .map((file) => parse(path.join(dir, file)))
    .sort((a, b) => Number(a.fields.order) - Number(b.fields.order));
  const sections = parts.map(({ fields, body }, i) => {
    const photo = fields.photo ? `![${fields.photoAlt ?? ""}](${fields.photo})\n\n` : "";
    // Our subsections' own headings are one level down from their title.
    return `## ${String(i + 1).padStart(2, "0")} ${fields.title}\n\n${photo}${body.replace(/^(#{2,3}) /gm, "#$1 ")}`;
  });
  return `---\ntitle: ${JSON.stringify(chapter.fields.title ?? path.basename(dir))}\nsidebar:\n  order: ${order}\n---\n${[chapter.body, ...sections].join("\n\n")}`;
}

/** Builds the comparison site into bench/.starlight/dist, precompressed as ours is. */
function build(): string {
  install();
  const operator = path.join(ROOT, "content", "book", "operator");
  const chapters = fs.readdirSync(operator).sort();
  const docs = path.join(DIR, "src", "content", "docs");
  fs.rmSync(path.join(DIR, "src"), { recursive: true, force: true });
  fs.rmSync(path.join(DIR, "public"), { recursive: true, force: true });
  fs.mkdirSync(docs, { recursive: true });
  // The first chapter is the page compared; the level's other chapters fill the sidebar.
  chapters.forEach((chapter, i) => fs.writeFileSync(path.join(docs, i === 0 ? "index.md" : `${chapter}.md`), chapterPage(path.join(operator, chapter), i)));
  // The same photo files as ours.
  fs.cpSync(path.join(ROOT, "public"), path.join(DIR, "public"), { recursive: true });
  fs.writeFileSync(
    path.join(DIR, "src", "content.config.ts"),
    `import { defineCollection } from "astro:content";\nimport { docsLoader } from "@astrojs/starlight/loaders";\nimport { docsSchema } from "@astrojs/starlight/schema";\nexport const collections = { docs: defineCollection({ loader: docsLoader(), schema: docsSchema() }) };\n`,
  );
  fs.writeFileSync(
    path.join(DIR, "astro.config.mjs"),
    `import { defineConfig } from "astro/config";\nimport starlight from "@astrojs/starlight";\nexport default defineConfig({ integrations: [starlight({ title: "System Book (Starlight)" })] });\n`,
  );
  const dist = path.join(DIR, "dist");
  fs.rmSync(dist, { recursive: true, force: true });
  run(process.execPath, [path.join(DIR, "node_modules", "astro", "bin", "astro.mjs"), "build"]);
  precompress(dist);
  return dist;
}

export interface StarlightSite {
  /** The chapter's page. */
  chapterUrl: string;
  close(): Promise<void>;
}

/** Serves `dir` with our static server (StaticSite: its brotli copies, ETags), as the comparison pages are served. */
export async function serveStatic(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const site = new StaticSite(dir);
  const server = http.createServer((req, res) => {
    req.resume();
    const file = site.lookup(new URL(req.url ?? "/", "http://localhost").pathname);
    const request = { ifNoneMatch: req.headers["if-none-match"] ?? null, acceptEncoding: req.headers["accept-encoding"] ?? null, head: req.method === "HEAD" };
    const answer = file ? staticAnswer(file, 200, {}, request) : { status: 404, headers: { "content-type": "text/plain" }, body: Buffer.from("Not found") };
    res.writeHead(answer.status, answer.headers).end(answer.body ?? undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Builds the Starlight page and serves it with our static server. */
export async function starlightSite(): Promise<StarlightSite> {
  const { url, close } = await serveStatic(build());
  return { chapterUrl: `${url}/`, close };
}
