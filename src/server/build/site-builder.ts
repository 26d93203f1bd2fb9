/**
 * Building the static site from the database: take a content snapshot, run `astro build` into a
 * fresh folder, then swap it in at once. A stamp of the snapshot and the build inputs tells
 * whether an existing build is current.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Database } from "../db/types.ts";
import { projectRoot } from "../host/netlify-config.ts";
import { chaptersFor } from "../../lib/level-chapters.ts";
import { writeSitemap } from "./sitemap.ts";
import { hasSearchDelta, updateSearchIndex, writeSearchIndex, type IndexWritten } from "./static-index.ts";
import { SNAPSHOT_ENV, siteContentOf, takeSnapshot, writeSnapshot, type ContentSnapshot, type SiteContent } from "./snapshot.ts";

/**
 * What a static build reads besides the snapshot; a change to any of them calls for a rebuild. All
 * of src: the pages import from most of it (the page script, the islands, the directives, the
 * build's own integrations, and parts of src/server). The list of folders this replaced missed
 * src/scripts, src/directives and src/build: a server restarted on a changed page script kept
 * serving the pages built with the old one.
 */
const BUILD_INPUTS = ["astro.config.mjs", "package-lock.json", "content/assessment.yaml", "public", "src"];

const STAMP_FILE = ".build-stamp";
/**
 * What the site's pages were built from: the sources and the first open chapter, which `/` names
 * (no page holds the chapter list, decision 0029, nor the open level's text, which only the search
 * index holds; the sitemap is written with the index).
 */
const PAGES_STAMP_FILE = ".pages-stamp";

export interface BuildOptions {
  db: Database;
  /** The folder the finished site ends up in (swapped in whole). */
  outDir: string;
  /** Where the snapshot and the folder under construction go. */
  workDir: string;
  log?: (line: string) => void;
  /** Write the whole search index even where a delta would do (static-index.ts; the publisher's second step). */
  wholeIndex?: boolean;
}

/**
 * The stamp a build of the current content and sources would carry, and what that site would hold
 * of the content (what publish_state records: src/server/publish).
 */
export async function currentStamp(db: Database): Promise<{ stamp: string; pagesStamp: string; content: SiteContent; snapshot: ContentSnapshot }> {
  const snapshot = await takeSnapshot(db);
  const sources = createHash("sha256");
  for (const file of inputFiles()) {
    sources.update(file).update("\0").update(fs.readFileSync(path.join(projectRoot, file))).update("\0");
  }
  const ofSources = (json: string) => createHash("sha256").update(sources.copy().digest()).update(json).digest("hex");
  return {
    stamp: ofSources(JSON.stringify(snapshot)),
    pagesStamp: ofSources(JSON.stringify(pagesRead(snapshot))),
    content: siteContentOf(snapshot),
    snapshot,
  };
}

export function builtStamp(outDir: string, file = STAMP_FILE): string | null {
  try {
    return fs.readFileSync(path.join(outDir, file), "utf8");
  } catch {
    return null;
  }
}

/**
 * Builds when `outDir` is missing or older than the content or the sources; answers whether it
 * built and what the site now in `outDir` holds of the content.
 */
export async function ensureBuilt(options: BuildOptions): Promise<{ built: boolean; content: SiteContent }> {
  const { stamp, content } = await currentStamp(options.db);
  // (Asked for the whole index, a current site with a search delta has it written whole.)
  if (builtStamp(options.outDir) === stamp && !(options.wholeIndex && hasSearchDelta(options.outDir))) return { built: false, content };
  return { built: true, content: await buildSite(options) };
}

/** What the built pages read of the content: the first open chapter (`/` sends readers there). */
function pagesRead(snapshot: ContentSnapshot) {
  const first = chaptersFor(snapshot.chapters, "Operator", null)[0];
  return first ? { slug: first.slug, title: first.title } : null;
}

/**
 * Builds the site from the database's current content and swaps it in; answers what it holds of the
 * content. When what its pages read is as it was when the site in `outDir` was built (the sources
 * and the first open chapter: a chapter added, renamed, moved or edited elsewhere in the book
 * changes no page), that site is copied with its search index brought up to date and a new sitemap,
 * and its pages are not built again: 0.1-0.2 s against 5-7 s for a build.
 */
export async function buildSite({ db, outDir, workDir, log = () => {}, wholeIndex = false }: BuildOptions): Promise<SiteContent> {
  const started = performance.now();
  const { stamp, pagesStamp, content, snapshot } = await currentStamp(db);
  const next = `${outDir}.next`;
  fs.rmSync(next, { recursive: true, force: true });
  if (builtStamp(outDir, PAGES_STAMP_FILE) === pagesStamp) {
    let written: IndexWritten;
    try {
      fs.cpSync(outDir, next, { recursive: true });
      for (const copy of ["", ".br", ".gz"]) fs.rmSync(path.join(next, `sitemap.xml${copy}`), { force: true });
      written = await finish(next, { stamp, pagesStamp, snapshot, workDir, index: wholeIndex ? "whole" : "update" });
    } catch (error) {
      fs.rmSync(next, { recursive: true, force: true });
      throw error;
    }
    swapIn(next, outDir);
    const how = written.whole ? "" : `, ${written.deltaChapters} changed chapter${written.deltaChapters === 1 ? "" : "s"} in its delta`;
    log(`Search index rewritten in ${((performance.now() - started) / 1000).toFixed(1)} s (the pages were current)${how}.`);
    // (The search files may still hold the earlier text of the delta's chapters: the publish status counts it.)
    return { ...content, textStamps: written.textStamps };
  }
  const snapshotFile = path.join(workDir, "site-content.json");
  writeSnapshot(snapshotFile, snapshot);
  // Astro keeps its prerender scratch (modules that import from node_modules) in the output folder
  // when that folder is inside the project, and in one shared ./.astro/ otherwise. So every build
  // gets a folder of its own inside the project, and concurrent builds never collide.
  const scratch = path.join(projectRoot, "node_modules", ".cache", "site-builds", `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  log("Building the static site...");
  try {
    await runAstroBuild(scratch, snapshotFile, path.join(workDir, "astro-cache"));
    await finish(scratch, { stamp, pagesStamp, snapshot, workDir, index: "whole" });
    moveFolder(scratch, next);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  swapIn(next, outDir);
  log(`Static site built in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  return content;
}

/**
 * A built site's search index (`whole`, or brought up to date with a delta: static-index.ts),
 * sitemap, compressed copies and stamps.
 */
async function finish(
  siteDir: string,
  { stamp, pagesStamp, snapshot, workDir, index }: { stamp: string; pagesStamp: string; snapshot: ContentSnapshot; workDir: string; index: "whole" | "update" },
): Promise<IndexWritten> {
  const written = index === "whole" ? await writeSearchIndex(snapshot.searchRecords, siteDir) : await updateSearchIndex(snapshot.searchRecords, siteDir);
  writeSitemap(siteDir, snapshot.chapters);
  // In a process of its own, like astro build: brotli at its best quality takes memory a
  // running server would keep (README, "Memory").
  await runNode("precompress", [path.join(import.meta.dirname, "precompress.ts"), siteDir, path.join(workDir, "compressed")], {});
  fs.writeFileSync(path.join(siteDir, PAGES_STAMP_FILE), pagesStamp);
  fs.writeFileSync(path.join(siteDir, STAMP_FILE), stamp);
  return written;
}

/** Renames a folder, or copies it when the two are on different filesystems. */
function moveFolder(from: string, to: string): void {
  fs.mkdirSync(path.dirname(to), { recursive: true });
  try {
    fs.renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    fs.cpSync(from, to, { recursive: true });
  }
}

/** Replaces `outDir` with `next` in one synchronous step: no request can see a half-swapped site. */
function swapIn(next: string, outDir: string): void {
  const previous = `${outDir}.previous`;
  fs.rmSync(previous, { recursive: true, force: true });
  if (fs.existsSync(outDir)) fs.renameSync(outDir, previous);
  fs.renameSync(next, outDir);
  fs.rmSync(previous, { recursive: true, force: true });
}

const runningBuilds = new Set<ChildProcess>();

/** Stops every build this process is running (shutdown); each fails, leaving the served site as it was. */
export function abortBuilds(): void {
  for (const child of runningBuilds) child.kill("SIGTERM");
}

function runAstroBuild(outDir: string, snapshotFile: string, cacheDir: string): Promise<void> {
  const astro = path.join(projectRoot, "node_modules", "astro", "bin", "astro.mjs");
  return runNode("astro build", [astro, "build", "--silent"], { ASTRO_OUT_DIR: outDir, ASTRO_CACHE_DIR: cacheDir, [SNAPSHOT_ENV]: snapshotFile, ASTRO_TELEMETRY_DISABLED: "1" });
}

/** Runs a step of the build in a Node process of its own (stopped by abortBuilds). */
function runNode(name: string, args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: projectRoot, env: { ...process.env, ...env }, stdio: ["ignore", "inherit", "inherit"] });
    runningBuilds.add(child);
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      runningBuilds.delete(child);
      if (code === 0) resolve();
      else reject(new Error(signal ? `${name} was stopped (${signal}).` : `${name} exited with code ${code}.`));
    });
  });
}

/** The files a build's stamp covers, tests left out. */
export function inputFiles(): string[] {
  const files: string[] = [];
  for (const input of BUILD_INPUTS) {
    const full = path.join(projectRoot, input);
    if (!fs.existsSync(full)) continue;
    if (fs.statSync(full).isFile()) {
      files.push(input);
      continue;
    }
    for (const entry of fs.readdirSync(full, { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && !entry.name.endsWith(".test.ts")) {
        files.push(path.relative(projectRoot, path.join(entry.parentPath, entry.name)));
      }
    }
  }
  return files.sort();
}
