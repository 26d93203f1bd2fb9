/**
 * Locked content, on a real build: it never leaks (for every Architect and Mastermind chapter and
 * subsection of the seed, a distinctive sentence of it appears in no file of the build, and in no
 * response to an anonymous or lower-level caller, on any read route), and /{slug} serves it to
 * the readers it belongs to, rendered on the server like a static chapter. The static search index
 * (dist/pagefind, its records gzip-compressed) holds the open level's passages and no locked ones.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canAccess, type Level } from "../../src/lib/levels.ts";
import { buildSite } from "../../src/server/build/site-builder.ts";
import { chapterDescription } from "../../src/lib/chapter-body.ts";
import { escapeHtml } from "../../src/lib/html.ts";
import { loadBook } from "../../src/server/content/book.ts";
import { seed } from "../../src/server/content/seed.ts";
import { openDatabase, type DatabaseHandle } from "../../src/server/db/client.ts";
import { eq } from "../../src/server/db/orm.ts";
import { chapters } from "../../src/server/db/schema.ts";
import { apiClient, type Api } from "../support/api.ts";
import { createChapter, createSubsection } from "../support/factories.ts";
import { loginAs } from "../support/auth.ts";

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

  it("appears in no file of the built site", () => {
    const files = fs.readdirSync(path.join(siteDir, "dist"), { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    expect(files.length).toBeGreaterThan(5);
    const texts = files.map((f) => fs.readFileSync(path.join(f.parentPath, f.name)).toString("latin1"));
    for (const secret of secrets) {
      for (const text of texts) expect(text.includes(secret.text), secret.where).toBe(false);
    }
  });

  it("is not in the static search index, which holds every Operator passage and nothing else", () => {
    const fragments = path.join(siteDir, "dist", "pagefind", "fragment");
    const records = fs.readdirSync(fragments).map((name) => {
      const text = gunzipSync(fs.readFileSync(path.join(fragments, name))).toString("utf8");
      expect(text.startsWith("pagefind_dcd")).toBe(true);
      return JSON.parse(text.slice("pagefind_dcd".length)) as { url: string; content: string; meta: Record<string, string> };
    });
    const open = book.filter((c) => c.level === "Operator");
    expect(records.map((r) => r.url).sort()).toEqual(
      open.flatMap((c) => [`/${c.slug}`, ...c.subsections.map((s) => `/${c.slug}#${s.slug}`)]).sort(),
    );
    const index = records.map((r) => `${r.content}\n${JSON.stringify(r.meta)}`).join("\n");
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

/** Drafts (issue 14), made before the build: a draft chapter, a draft subsection of a published chapter, a pending edit. */
const DRAFTS = {
  chapterSlug: "a-draft-never-built",
  chapter: "Words of a draft chapter that no build may hold",
  part: "Words of a draft subsection inside a published chapter",
  pending: "Words of a pending edit the live chapter does not show yet",
};

async function addDrafts(handle: DatabaseHandle): Promise<void> {
  const open = book.find((c) => c.level === "Operator")!;
  const draft = await createChapter(handle.db, { level: "Operator", slug: DRAFTS.chapterSlug, status: "draft", content: DRAFTS.chapter });
  await createSubsection(handle.db, draft.id, { content: DRAFTS.chapter });
  const [live] = await handle.db.select().from(chapters).where(eq(chapters.slug, open.slug));
  await createSubsection(handle.db, live!.id, { status: "draft", content: DRAFTS.part });
  await handle.db.update(chapters).set({ draft: { ...open, content: DRAFTS.pending } }).where(eq(chapters.id, live!.id));
}

describe("drafts (issue 14)", () => {
  it("appear in no file of the built site, the sitemap included, and in no reader's answer", async () => {
    const files = fs.readdirSync(path.join(siteDir, "dist"), { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
    const sitemap = files.find((f) => f.name === "sitemap.xml");
    expect(sitemap).toBeDefined();
    expect(fs.readFileSync(path.join(sitemap!.parentPath, sitemap!.name), "utf8")).not.toContain(DRAFTS.chapterSlug);
    const texts = files.map((f) => fs.readFileSync(path.join(f.parentPath, f.name)).toString("latin1"));
    const headers = { cookie: (await loginAs(api, database.db, "Mastermind")).cookie };
    const list = (await (await api("/api/chapters", { headers })).json()) as Array<{ id: number; slug: string }>;
    expect(list.map((c) => c.slug)).not.toContain(DRAFTS.chapterSlug);
    const paths = [...list.flatMap((c) => [`/api/chapters/${c.slug}`, `/api/chapters/${c.id}/subsections`, `/${c.slug}`]), `/${DRAFTS.chapterSlug}`, `/api/chapters/${DRAFTS.chapterSlug}`];
    const answers = await Promise.all(paths.map(async (p) => (await api(p, { headers })).text()));
    for (const secret of [DRAFTS.chapter, DRAFTS.part, DRAFTS.pending]) {
      for (const text of texts) expect(text.includes(secret), secret).toBe(false);
      expect(answers.join("\n").includes(secret), secret).toBe(false);
    }
  });
});

describe("/{slug}: chapter pages rendered into the chapter shell", () => {
  const architect = book.find((c) => c.level === "Architect")!;
  const operator = book.find((c) => c.level === "Operator")!;

  it("sends a reader without access to /resume", async () => {
    for (const headers of [undefined, { cookie: (await loginAs(api, database.db, "Operator")).cookie }]) {
      const response = await api(`/${architect.slug}`, { headers });
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/resume");
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
    expect(open.headers.get("netlify-cdn-cache-control")).toBe("public, durable, s-maxage=31536000");
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
