/**
 * Locked content, on a real build: it never leaks (for every Architect and Mastermind chapter and
 * subsection of the seed, a distinctive sentence of it appears in no file of the build, and in no
 * response to an anonymous or lower-level caller, on any read route), and /{slug} serves it to
 * the readers it belongs to, rendered on the server like a static chapter. The static search index
 * (dist/search-index: its chunks of words and its records) holds the open level's passages and no
 * locked ones.
 * Drafts, of every level, are in none of these, nor in the sitemap or the teasers; the operator's
 * own export holds them marked as drafts (issue 21: 1). The same build's top-level names are each
 * refused as a chapter's slug (issue 22: 2).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canAccess, type Level } from "../../src/lib/levels.ts";
import { buildSite } from "../../src/server/build/site-builder.ts";
import { chapterDescription } from "../../src/lib/chapter-body.ts";
import { escapeHtml } from "../../src/lib/html.ts";
import { recordFile, SEARCH_ENTRY, SEARCH_INDEX_DIR, termsFile, type IndexedRecord, type SearchEntry } from "../../src/lib/static-search-index.ts";
import { loadBook } from "../../src/server/content/book.ts";
import { exportBook } from "../../src/server/content/book-export.ts";
import { seed } from "../../src/server/content/seed.ts";
import { openDatabase, type DatabaseHandle } from "../../src/server/db/client.ts";
import { eq } from "../../src/server/db/orm.ts";
import { chapters } from "../../src/server/db/schema.ts";
import { apiClient, type Api } from "../support/api.ts";
import { createChapter, createSubsection } from "../support/factories.ts";
import { loginAs } from "../support/auth.ts";
import { expectEveryNameRefused, topLevelNamesOf } from "../support/top-level-names.ts";

const book = loadBook();

/** The longest run of plain words in `content`: markup-free, so it reads the same in HTML and JSON. */
function distinctive(content: string): string {
  const runs = content.match(/[A-Za-z][A-Za-z ]{30,}[A-Za-z]/g) ?? [];
  return runs.sort((a, b) => b.length - a.length)[0]!;
}

const secrets = book
  .filter((chapter) => chapter.level !== "Operator")
  .flatMap((chapter) => [
    { level: chapter.level as Level, where: chapter.slug, text: distinctive(chapter.content) },
    ...chapter.subsections.map((part) => ({ level: chapter.level as Level, where: `${chapter.slug}#${part.slug}`, text: distinctive(part.content) })),
  ]);

let database: DatabaseHandle;
let siteDir: string;
let api: Api;

beforeAll(async () => {
  database = await openDatabase({ driver: "pglite", dataDir: null });
  await database.migrate();
  await seed(database.db, book);
  await addDrafts(database);
  siteDir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-leak-"));
  await buildSite({ db: database.db, outDir: path.join(siteDir, "dist"), workDir: path.join(siteDir, "work") });
  api = await apiClient(database, path.join(siteDir, "dist"));
}, 180_000);

afterAll(async () => {
  await database?.close();
  if (siteDir) fs.rmSync(siteDir, { recursive: true, force: true });
});

describe("locked content", () => {
  it("has a distinctive sentence for every locked chapter and subsection, found nowhere in Operator content", () => {
    const open = book.filter((c) => c.level === "Operator").flatMap((c) => [c.content, ...c.subsections.map((s) => s.content)]);
    expect(secrets.length).toBeGreaterThanOrEqual(10);
    for (const secret of secrets) {
      expect(secret.text.length, secret.where).toBeGreaterThan(30);
      for (const text of open) expect(text).not.toContain(secret.text);
    }
  });

  it("appears in no file of the built site (compressed ones unpacked)", () => {
    const files = fs.readdirSync(path.join(siteDir, "dist"), { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    expect(files.length).toBeGreaterThan(5);
    const texts = files.map((f) => builtText(path.join(f.parentPath, f.name)));
    for (const secret of secrets) {
      for (const text of texts) expect(text.includes(secret.text), secret.where).toBe(false);
    }
  });

  it("is not in the static search index, which holds every Operator passage and nothing else", () => {
    const dist = path.join(siteDir, "dist");
    const { whole, delta } = JSON.parse(fs.readFileSync(path.join(dist, SEARCH_ENTRY), "utf8")) as SearchEntry;
    expect(delta).toBeNull();
    const records = Array.from({ length: whole.records }, (_, n) => JSON.parse(fs.readFileSync(path.join(dist, recordFile(whole.id, n)), "utf8")) as IndexedRecord);
    const words = Array.from({ length: whole.chunks.length }, (_, k) => fs.readFileSync(path.join(dist, termsFile(whole.id, k)), "utf8"));
    const open = book.filter((c) => c.level === "Operator");
    expect(records.map((r) => r.url).sort()).toEqual(
      open.flatMap((c) => [`/${c.slug}`, ...c.subsections.map((s) => `/${c.slug}#${s.slug}`)]).sort(),
    );
    const index = [...records.map((r) => JSON.stringify(r)), ...words].join("\n");
    // The check below can fail: the index does hold the open level's words.
    expect(index).toContain(distinctive(open[0]!.subsections[0]!.content));
    for (const secret of secrets) expect(index.includes(secret.text), secret.where).toBe(false);
    for (const chapter of book.filter((c) => c.level !== "Operator")) {
      expect(index).not.toContain(chapter.slug);
      for (const part of chapter.subsections) expect(index).not.toContain(part.title);
    }
  });

  it.each([
    ["an anonymous caller", null],
    ["an Operator code", "Operator"],
    ["an Architect code", "Architect"],
  ] as const)("reaches %s only where its level allows", async (_who, level) => {
    const headers = level ? { cookie: (await loginAs(api, database.db, level)).cookie } : undefined;
    const list = (await (await api("/api/chapters", { headers })).json()) as Array<{ id: number; slug: string }>;
    const paths = [
      "/api/chapters",
      ...list.flatMap((c) => [`/api/chapters/${c.slug}`, `/api/chapters/${c.id}/subsections`, `/${c.slug}`]),
      // The server's search, asked for the very words of every locked passage.
      ...secrets.map((secret) => `/api/search?q=${encodeURIComponent(secret.text.split(" ").slice(0, 5).join(" "))}`),
    ];
    const bodies = await Promise.all(paths.map(async (p) => (await api(p, { headers })).text()));
    const everything = bodies.join("\n");
    for (const secret of secrets) {
      expect(everything.includes(secret.text), `${secret.where} for ${level ?? "anonymous"}`).toBe(canAccess(level, secret.level));
    }
  });
});

/**
 * Drafts (issues 14 and 21), made before the build, of the open level and of the locked ones: a
 * draft chapter (with its teaser, and a published subsection inside it), a draft subsection of a
 * published chapter, and a published chapter's pending edit (its text and its teaser). Each holds
 * a canary: a word in no other text, so a search for it finds it wherever it went.
 */
const CANARY = {
  openChapter: "qxcanaryopenchapter",
  openInside: "qxcanaryopeninside",
  openPart: "qxcanaryopenpart",
  openPending: "qxcanaryopenpending",
  lockedChapter: "qxcanarylockedchapter",
  lockedTeaser: "qxcanarylockedteaser",
  lockedInside: "qxcanarylockedinside",
  lockedPart: "qxcanarylockedpart",
  lockedPending: "qxcanarylockedpending",
  lockedPendingTeaser: "qxcanarypendingteaser",
};
/** The canaries of items whose status is draft; the others wait in a published item's pending edit. */
const STATUS_DRAFTS = [CANARY.openChapter, CANARY.openInside, CANARY.openPart, CANARY.lockedChapter, CANARY.lockedTeaser, CANARY.lockedInside, CANARY.lockedPart];
const PENDING_EDITS = [CANARY.openPending, CANARY.lockedPending, CANARY.lockedPendingTeaser];
const DRAFT_SLUGS = ["a-draft-never-built", "a-locked-draft-never-built"];

async function addDrafts(handle: DatabaseHandle): Promise<void> {
  const db = handle.db;
  const open = book.find((c) => c.level === "Operator")!;
  const architect = book.find((c) => c.level === "Architect")!;
  const mastermind = book.find((c) => c.level === "Mastermind")!;
  const liveRow = async (slug: string) => (await db.select().from(chapters).where(eq(chapters.slug, slug)))[0]!;

  const draft = await createChapter(db, { level: "Operator", slug: DRAFT_SLUGS[0], status: "draft", content: `Words of a draft chapter that no build may hold: ${CANARY.openChapter}.` });
  await createSubsection(db, draft.id, { content: `A published part inside a draft chapter: ${CANARY.openInside}.` });
  await createSubsection(db, (await liveRow(open.slug)).id, { status: "draft", content: `Words of a draft subsection inside a published chapter: ${CANARY.openPart}.` });
  await db.update(chapters).set({ draft: { ...open, content: `Words of a pending edit the live chapter does not show yet: ${CANARY.openPending}.` } }).where(eq(chapters.slug, open.slug));

  const locked = await createChapter(db, {
    level: "Mastermind",
    slug: DRAFT_SLUGS[1],
    status: "draft",
    teaser: `A teaser of a draft chapter: ${CANARY.lockedTeaser}.`,
    content: `Words of a locked draft chapter: ${CANARY.lockedChapter}.`,
  });
  await createSubsection(db, locked.id, { content: `A published part inside a locked draft chapter: ${CANARY.lockedInside}.` });
  await createSubsection(db, (await liveRow(architect.slug)).id, { status: "draft", content: `A draft subsection of a published Architect chapter: ${CANARY.lockedPart}.` });
  const pending = { ...mastermind, content: `A pending edit of a Mastermind chapter: ${CANARY.lockedPending}.`, teaser: `A pending teaser: ${CANARY.lockedPendingTeaser}.` };
  await db.update(chapters).set({ draft: pending }).where(eq(chapters.slug, mastermind.slug));
}

/** A built file's text as a reader's browser gets it: compressed files (the .gz and .br copies) unpacked. */
function builtText(file: string): string {
  const bytes = fs.readFileSync(file);
  if (file.endsWith(".br")) return zlib.brotliDecompressSync(bytes).toString("latin1");
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return zlib.gunzipSync(bytes).toString("latin1");
  return bytes.toString("latin1");
}

describe("drafts (issues 14 and 21)", () => {
  it("have canaries found in no other text of the book", () => {
    const texts = book.flatMap((c) => [c.title, c.content, ...c.subsections.flatMap((s) => [s.title, s.content])]).join("\n").toLowerCase();
    for (const canary of Object.values(CANARY)) expect(texts).not.toContain(canary);
  });

  it("appear in no file of the built site: pages, the sitemap, the static search index (unpacked) and the compressed copies", () => {
    const dist = path.join(siteDir, "dist");
    const files = fs.readdirSync(dist, { recursive: true, withFileTypes: true }).filter((f) => f.isFile()).map((f) => path.join(f.parentPath, f.name));
    const sitemap = fs.readFileSync(path.join(dist, "sitemap.xml"), "utf8");
    for (const slug of DRAFT_SLUGS) expect(sitemap).not.toContain(slug);
    const index = files.filter((f) => f.includes(`${path.sep}${SEARCH_INDEX_DIR}${path.sep}`));
    expect(index.some((f) => /records.\d+\.json$/.test(f)) && index.some((f) => /terms.\d+\.json$/.test(f))).toBe(true);
    // The scan sees into the index: a word of a published Operator passage is there.
    const control = book.find((c) => c.level === "Operator")!.subsections[0]!.content.match(/[A-Za-z]{9,}/)![0].toLowerCase();
    expect(index.map(builtText).join("\n").toLowerCase()).toContain(control);
    for (const file of files) {
      const text = builtText(file).toLowerCase();
      for (const canary of Object.values(CANARY)) expect(text.includes(canary), `${canary} in ${path.relative(dist, file)}`).toBe(false);
      for (const slug of DRAFT_SLUGS) expect(text.includes(slug), `${slug} in ${path.relative(dist, file)}`).toBe(false);
    }
  });

  it.each([
    ["an anonymous caller", null],
    ["an Operator code", "Operator"],
    ["an Architect code", "Architect"],
    ["a Mastermind code", "Mastermind"],
  ] as const)("reach no answer to %s: chapter list and teasers, chapters, pages, the server's search", async (_who, level) => {
    const headers = level ? { cookie: (await loginAs(api, database.db, level)).cookie } : undefined;
    const list = (await (await api("/api/chapters", { headers })).json()) as Array<{ id: number; slug: string }>;
    for (const slug of DRAFT_SLUGS) expect(list.map((c) => c.slug)).not.toContain(slug);
    const paths = [
      "/api/chapters",
      ...list.flatMap((c) => [`/api/chapters/${c.slug}`, `/api/chapters/${c.id}/subsections`, `/${c.slug}`]),
      ...DRAFT_SLUGS.flatMap((slug) => [`/${slug}`, `/api/chapters/${slug}`]),
      ...Object.values(CANARY).map((canary) => `/api/search?q=${canary}`),
      "/api/search?q=draft",
      "/api/search?q=pending",
    ];
    const answers = await Promise.all(paths.map(async (p) => (await (await api(p, { headers })).text()).toLowerCase()));
    answers.forEach((answer, i) => {
      for (const canary of Object.values(CANARY)) expect(answer.includes(canary), `${canary} in the answer to ${paths[i]}`).toBe(false);
    });
  });

  it("are in the operator's own export only as drafts, marked so an import keeps them unpublished; a pending edit is not", async () => {
    // `npm run book -- export DIR` is the operator's copy of the whole book (locked levels too),
    // written from the command line with the database's credentials: drafts belong in it.
    const folder = path.join(siteDir, "export");
    await exportBook(database.db, folder);
    const files = fs.readdirSync(folder, { recursive: true, withFileTypes: true }).filter((f) => f.isFile() && f.name.endsWith(".md"));
    const found = new Set<string>();
    for (const file of files) {
      const text = fs.readFileSync(path.join(file.parentPath, file.name), "utf8");
      const chapterDoc = fs.readFileSync(path.join(file.parentPath, "chapter.md"), "utf8");
      for (const canary of PENDING_EDITS) expect(text, file.name).not.toContain(canary);
      for (const canary of STATUS_DRAFTS.filter((c) => text.includes(c))) {
        found.add(canary);
        expect(`${text}\n${chapterDoc}`, `${canary} in ${file.name}`).toContain("\ndraft: true\n");
      }
    }
    expect([...found].sort()).toEqual([...STATUS_DRAFTS].sort());
  });
});

describe("/{slug}: chapter pages rendered into the chapter shell", () => {
  const architect = book.find((c) => c.level === "Architect")!;
  const operator = book.find((c) => c.level === "Operator")!;

  it("sends a reader without access to /resume", async () => {
    for (const headers of [undefined, { cookie: (await loginAs(api, database.db, "Operator")).cookie }]) {
      const response = await api(`/${architect.slug}`, { headers });
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/resume?level=Architect");
      expect(await response.text()).toBe("");
    }
  });

  it("renders a locked chapter for its reader alike an Operator chapter, never cached", async () => {
    const { cookie } = await loginAs(api, database.db, "Architect");
    const response = await api(`/${architect.slug}`, { headers: { cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(response.headers.get("netlify-cdn-cache-control")).toBeNull();
    const page = await response.text();
    expect(page).not.toMatch(/ChapterShell|chapter-shell/);
    expect(page).toContain(`<title>${architect.title} · The System</title>`);
    expect(page).toContain(`data-chapter-slug="${architect.slug}"`);
    expect(page).toContain(`data-chapter-level="Architect"`);
    expect(page).toContain(`Architect · ${architect.readingTime} min read`);
    expect(page).toContain(`<link rel="canonical" href="http://localhost:4321/${architect.slug}">`);
    expect(page).not.toContain(`<meta name="robots"`);
    for (const part of architect.subsections) {
      expect(page).toContain(`<section id="${part.slug}"`);
      expect(page).toContain(part.title);
    }
    // The same structure as an Operator page, which the CDN may keep (tagged, purged on change).
    const open = await api(`/${operator.slug}`);
    expect(open.headers.get("netlify-cdn-cache-control")).toBe("public, durable, s-maxage=3600");
    expect(open.headers.get("netlify-cache-tag")).toBe("book");
    expect(open.headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
    const staticPage = await open.text();
    expect(staticPage).toContain(`<meta name="description" content="${escapeHtml(chapterDescription(operator.content))}">`);
    const shape = (html: string) =>
      [...html.matchAll(/<(section|h1|h2|article|header|img|nav|footer)\b[^>]*class="([^"]*)"/g)].map((m) => `${m[1]}.${m[2]}`);
    const common = (html: string) => new Set(shape(html));
    for (const item of common(staticPage)) if (/^(section|h1|h2|article)\./.test(item)) expect(common(page)).toContain(item);
  });

  it("answers a slug that is no chapter with the missing-chapter view, anything else with the 404 page", async () => {
    const missing = await api("/no-such-chapter");
    expect(missing.status).toBe(404);
    const view = await missing.text();
    expect(view).toContain("Chapter not found");
    expect(view).toContain("The requested chapter could not be found.");
    expect(view).not.toContain("404 Page Not Found");
    for (const pathname of ["/UPPER", "/a%20b", "/no/such/page"]) {
      const response = await api(pathname);
      expect(response.status, pathname).toBe(404);
      expect(await response.text()).toContain("404 Page Not Found");
    }
  });

  it("serves chapters made after the build at once: an Operator one to everyone, a locked one to its readers", async () => {
    const fresh = await createChapter(database.db, { level: "Operator", slug: "written-after-the-build", content: "A paragraph published after the site was built." });
    await createSubsection(database.db, fresh.id, { title: "A later part", content: "Its later words." });
    const open = await api("/written-after-the-build");
    expect(open.status).toBe(200);
    expect(await open.text()).toContain("A paragraph published after the site was built.");

    await createChapter(database.db, { level: "Mastermind", slug: "a-new-locked-chapter", content: "Words only a Mastermind reader may see." });
    expect((await api("/a-new-locked-chapter")).status).toBe(302);
    const { cookie } = await loginAs(api, database.db, "Mastermind");
    const locked = await api("/a-new-locked-chapter", { headers: { cookie } });
    expect(locked.status).toBe(200);
    expect(await locked.text()).toContain("Words only a Mastermind reader may see.");
  });

  it("shows a chapter's own words as written, even where they look like the shell's placeholders", async () => {
    const title = "ChapterShellLevel 987654321 ChapterShellDescription";
    const content = "See /chapter-shell and /chapter-shell-transform, chapter-shell-slug and ChapterShellTitle.";
    await createChapter(database.db, { level: "Operator", slug: "chapter-shell-next-door", title, content });
    const page = await (await api("/chapter-shell-next-door")).text();
    expect(page).toMatch(new RegExp(`<h1[^>]*>${title}</h1>`));
    expect(page).toContain(content);
    expect(page).toContain('<link rel="canonical" href="http://localhost:4321/chapter-shell-next-door">');
  });
});

describe("the built site's top-level names (issue 22: 2)", () => {
  it("are each refused as a chapter's slug, so a new page, folder or file cannot take a chapter's address unnoticed", () => {
    const names = topLevelNamesOf(path.join(siteDir, "dist"));
    expect(names).toEqual(expect.arrayContaining(["_astro", "search-index", "images", "robots.txt", "sitemap.xml", "index", "admin"]));
    expectEveryNameRefused(names, "the built site");
  });
});
