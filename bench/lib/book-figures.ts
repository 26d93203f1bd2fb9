/**
 * The book's figures (issue 45: 2), for the seed book and a big book (1,000 chapters x 10
 * subsections by default: bench/lib/big-book.ts), side by side with their budgets:
 *   1. the static site's build (`buildSite`) — budget 60 s;
 *   2. publish to live on `npm start`'s server (bench/lib/publish-live.ts): an Operator chapter's
 *      text, and a rename that changes the chapter list (the rebuild path) — budget 10 s;
 *   3. the chapter drawer's tap on a 4x phone (bench/lib/book-browser.ts) — budget 100 ms;
 *   4. the bytes of the open level's first search — budget 100 KB;
 *   5. the admin panel's Chapters tab — budget 300 ms;
 *   6. a chapter page's first view (bench/lib/first-view.ts) — budget 60 KB.
 * Each book is made in a data dir of its own, built there (timed), then served by the product
 * (`npm start`, tests/support/product-server.ts) on that build. The measured chapter page is the
 * middle Operator chapter. Figures only, never asserted. Used by `npm run bench:book` and `npm run bench`.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { buildSite } from "../../src/server/build/site-builder.ts";
import { count } from "../../src/server/db/orm.ts";
import { subsections } from "../../src/server/db/schema.ts";
import { ensureChromium, FULL_BROWSER } from "../../tests/support/chromium.ts";
import { startProduct } from "../../tests/support/product-server.ts";
import { BENCH_ADMIN, makeBook } from "./big-book.ts";
import { adminChaptersTab, drawerTap, searchBytes, type AdminTab, type DrawerTap, type SearchBytes } from "./book-browser.ts";
import { firstViews, type FirstViewFigures } from "./first-view.ts";
import { adminChapters, adminCookie, listEditToLive, textEditToLive, type LiveTimes } from "./publish-live.ts";

export const BUDGETS = { buildS: 60, liveMs: 10_000, drawerMs: 100, searchKB: 100, adminMs: 300, firstViewKB: 60 };

export interface BookFigures {
  chapters: number;
  subsections: number;
  buildSeconds: number;
  /** The built site's size. */
  siteMiB: number;
  textEdit: LiveTimes;
  listEdit: LiveTimes;
  drawer: DrawerTap & { runs: DrawerTap[] };
  search: SearchBytes;
  admin: AdminTab;
  firstView: FirstViewFigures;
  /** The chapter page measured. */
  page: string;
}

export interface BookOptions {
  /** Chapters of the big book, every level counted (BOOK_CHAPTERS, default 1,000). */
  chapters?: number;
  /** Subsections of each added chapter (BOOK_PARTS, default 10). */
  parts?: number;
  /** Runs of the browser figures, medians taken (BOOK_RUNS, default 3). */
  runs?: number;
  /** The word searched (BOOK_WORD, default "attention": in the seed's open text and the big book's). */
  word?: string;
  /** The first of the ports the servers take (BOOK_PORT, default 4800). */
  port?: number;
  /** Only the big book (the seed's figures left out). */
  bigOnly?: boolean;
  log?: (line: string) => void;
}

export function bookOptionsFromEnv(): BookOptions {
  const number = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
  return { chapters: number("BOOK_CHAPTERS"), parts: number("BOOK_PARTS"), runs: number("BOOK_RUNS"), word: process.env.BOOK_WORD || undefined, port: number("BOOK_PORT") };
}

const sizeOf = (dir: string) =>
  fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((f) => f.isFile())
    .reduce((sum, f) => sum + fs.statSync(path.join(f.parentPath, f.name)).size, 0);

/** One book: made, built (timed), served, measured. */
async function measureBook(work: string, name: string, size: { chapters: number; parts: number }, options: Required<Omit<BookOptions, "bigOnly" | "log">> & { port: number }, log: (line: string) => void): Promise<BookFigures> {
  const dataDir = path.join(work, name);
  const siteDir = path.join(dataDir, "site");
  const book = await makeBook(dataDir, size);
  let buildSeconds: number;
  let parts: number;
  try {
    parts = (await book.db.select({ n: count() }).from(subsections))[0]!.n;
    const started = performance.now();
    // Where `npm start` builds (src/server/host/host.ts): the server then finds this build current.
    await buildSite({ db: book.db, outDir: siteDir, workDir: path.join(dataDir, "build") });
    buildSeconds = Number(((performance.now() - started) / 1000).toFixed(1));
  } finally {
    await book.close();
  }
  const siteMiB = Number((sizeOf(siteDir) / 2 ** 20).toFixed(1));
  log(`${name}: built in ${buildSeconds} s (${siteMiB} MiB); starting the server...`);
  const server = await startProduct({ DATABASE_URL: "", DATA_DIR: dataDir, SITE_DIR: siteDir, PORT: String(options.port) }, 600_000);
  try {
    const cookie = await adminCookie(server.url, BENCH_ADMIN);
    const all = await adminChapters(server.url, cookie);
    const open = all.filter((c) => c.level === "Operator").sort((a, b) => a.order - b.order);
    const middle = open[Math.floor(open.length / 2)]!;
    const page = `${server.url}/${middle.slug}`;
    for (let i = 0; i < 2; i++) await (await fetch(page)).arrayBuffer(); // the CDN stand-in holds it, as readers after the first find it

    const browser = await chromium.launch({ executablePath: ensureChromium(FULL_BROWSER), args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
    // The browser's own first start (its first renderer) is not a page's cost: one page of
    // another kind first, in a context of its own (each measured run has a fresh one, cold cache).
    // Without it the first admin run took 508 ms to the list and the next 264.
    const warmUp = await browser.newContext();
    await (await warmUp.newPage()).goto(`${server.url}/privacy-policy`);
    await warmUp.close();
    let drawer: BookFigures["drawer"];
    let search: SearchBytes;
    let admin: AdminTab;
    try {
      drawer = await drawerTap(browser, page, open.length, options.runs);
      log(`${name}: drawer ${JSON.stringify(drawer)}`);
      search = await searchBytes(browser, page, options.word);
      log(`${name}: search ${JSON.stringify(search)}`);
      admin = await adminChaptersTab(browser, server.url, BENCH_ADMIN, open.length, options.runs);
      log(`${name}: admin ${JSON.stringify(admin)}`);
    } finally {
      await browser.close();
    }
    const firstView = (await firstViews({ page }))["page"]!;
    log(`${name}: first view ${JSON.stringify(firstView)}`);

    // The edits last: the list's edit rebuilds the site.
    const textEdit = await textEditToLive(server.url, cookie, middle);
    log(`${name}: text edit ${JSON.stringify(textEdit)}`);
    // Renamed: a chapter a quarter in; watched: the last, whose page names no neighbour of it
    // (a chapter page's own links to the chapters before and after it are filled in at once).
    const at = Math.max(1, Math.floor(open.length / 4));
    const renamed = open[at]!;
    // (A chapter whose first response lists it: its neighbour.)
    const watched = open[at + 1] ?? open[at - 1]!;
    const listEdit = await listEditToLive(server.url, cookie, renamed, watched);
    log(`${name}: list edit ${JSON.stringify(listEdit)}`);
    return { chapters: all.length, subsections: parts, buildSeconds, siteMiB, textEdit, listEdit, drawer, search, admin, firstView, page: new URL(page).pathname };
  } finally {
    await server.stop();
  }
}

/** The seed book's figures and the big book's. */
export async function bookFigures(options: BookOptions = {}): Promise<{ seed: BookFigures | null; big: BookFigures }> {
  const settings = {
    chapters: options.chapters ?? 1000,
    parts: options.parts ?? 10,
    runs: options.runs ?? 3,
    word: options.word ?? "attention",
    port: options.port ?? 4800,
  };
  const log = options.log ?? (() => {});
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "sb-book-"));
  try {
    const seed = options.bigOnly ? null : await measureBook(work, "seed book", { chapters: 0, parts: 0 }, settings, log);
    const big = await measureBook(work, `${settings.chapters} x ${settings.parts}`, { chapters: settings.chapters, parts: settings.parts }, { ...settings, port: settings.port + 1 }, log);
    return { seed, big };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

const seconds = (ms: number | null) => (ms === null ? "n/a" : `${(ms / 1000).toFixed(1)} s`);

/** The figures as one table's rows: what, the seed book, the big book, the budget. */
export function bookTable({ seed, big }: { seed: BookFigures | null; big: BookFigures }): Array<Record<string, string>> {
  const bigName = `${big.chapters} chapters`;
  const row = (what: string, of: (f: BookFigures) => string, budget: string) => ({ what, "seed book": seed ? of(seed) : "-", [bigName]: of(big), budget });
  return [
    row("chapters / subsections", (f) => `${f.chapters} / ${f.subsections}`, ""),
    row("1. site build (buildSite)", (f) => `${f.buildSeconds} s (${f.siteMiB} MiB)`, `<= ${BUDGETS.buildS} s`),
    row("2. text edit: save to the reader's page", (f) => `${seconds(f.textEdit.readerMs)} (status live ${seconds(f.textEdit.statusMs)})`, `<= ${BUDGETS.liveMs / 1000} s`),
    row("2. list edit (rename): save to the readers' list", (f) => `${seconds(f.listEdit.readerMs)} (status live ${seconds(f.listEdit.statusMs)})`, `<= ${BUDGETS.liveMs / 1000} s`),
    row("3. drawer: tap to list painted, 4x phone", (f) => `${f.drawer.listPaintedMs} ms (frame ${f.drawer.listFrameMs}; presented ${f.drawer.presentedMs ?? "n/a"}; whole list ${f.drawer.wholeListMs ?? "n/a"} ms)`, `<= ${BUDGETS.drawerMs} ms`),
    row("4. first search: bytes moved", (f) => `${f.search.totalKB} KB (${Object.entries(f.search.byKind).map(([k, v]) => `${k} ${v}`).join(", ")}; ${f.search.requests} req, ${f.search.results} results)`, `<= ${BUDGETS.searchKB} KB`),
    row("5. admin Chapters tab: /admin to list", (f) => `${f.admin.navigationMs} ms (${f.admin.cards} cards)`, `<= ${BUDGETS.adminMs} ms`),
    row("5. admin Chapters tab: tab click to list", (f) => `${f.admin.tabClickMs} ms (every card: ${f.admin.allCardsMs} ms)`, `<= ${BUDGETS.adminMs} ms`),
    row("6. chapter page first view (phone)", (f) => `${f.firstView.totalKB} KB (HTML ${f.firstView.htmlKB}, CSS ${f.firstView.cssKB}, JS ${f.firstView.jsKB}, fonts ${f.firstView.fontKB}, img ${f.firstView.imageKB})`, `<= ${BUDGETS.firstViewKB} KB`),
  ];
}
