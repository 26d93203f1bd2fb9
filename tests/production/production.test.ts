/**
 * The production check: the site built by its build command in Netlify's production context,
 * every function packed by Netlify's own bundler with netlify.toml's settings, each zip's size and
 * content checked, then every bundle run as Lambda instances (two or more of each) with only the
 * environment functions get at run time, against a real PostgreSQL through `pg` and through the
 * Neon driver, and driven as a reader, a client and the operator would (emulator.ts says what is
 * Netlify's and what is emulated). What it cannot prove is a real deploy: Netlify's own proxy,
 * CDN and purge latency, and Neon itself.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNotebook as makeKeys, lockAway, openNote, sealNote } from "../../src/lib/notebook/crypto.ts";
import { conversationKey, MESSAGING_VAULT, newKeyPair, openMessage, sealMemberKey, sealMessage, sealPin } from "../../src/lib/messages/crypto.ts";
import { openDatabase, type DatabaseHandle } from "../../src/server/db/client.ts";
import { isNull } from "../../src/server/db/orm.ts";
import { cachePurges, leadWebhooks, publishState, webhookDeliveries } from "../../src/server/db/schema.ts";
import { CDN_MAX_AGE_S } from "../../src/server/http/cdn.ts";
import { seed } from "../../src/server/content/seed.ts";
import type { SiteContent } from "../../src/server/build/snapshot.ts";
import { markPublished, MISSING_HOOK } from "../../src/server/publish/state.ts";
import { listChapters } from "../../src/server/repositories/chapters.ts";
import { adminLogin, asAdmin } from "../support/admin.ts";
import { jsonPost, loginAs } from "../support/auth.ts";
import { createScratchDatabase, testDatabaseUrl } from "../support/databases.ts";
import { startNeonRelay, type Relay } from "../support/neon-relay.ts";
import { projectRoot } from "../support/product-server.ts";
import { BUILD_HOOK_URL, SITE_URL, startNetlifyEmulator, type NetlifyEmulator } from "./emulator.ts";
import { copyProject, filesOf, packFunctions, type PackedFunction } from "./pack.ts";
import { API_PATTERNS } from "../support/routes.ts";

const baseUrl = testDatabaseUrl();

/** The publish state row, read directly. */
async function readPublishRow(url: string): Promise<unknown> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query("select * from publish_state")).rows;
  } finally {
    await client.end();
  }
}
const MB = 1024 * 1024;
/** Netlify refuses a function whose zip is larger (docs: Functions > Get started > limits). */
const NETLIFY_ZIP_LIMIT = 50 * MB;
const SESSION_SECRET = "a-session-secret-of-the-production-check-0123456789";
/** Netlify's own working folder (git ignores it): on the filesystem of node_modules, which the copy hard-links. */
const WORK = path.join(projectRoot, ".netlify", "production-check");

describe.skipIf(!baseUrl)("production on Netlify: built, packed and run as Netlify does", () => {
  const root = path.join(WORK, "site");
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let functions: PackedFunction[];
  /** What the production build recorded of the content of the site it built. */
  let built: SiteContent;
  const byName = (name: string) => functions.find((fn) => fn.name === name)!;

  beforeAll(async () => {
    copyProject(projectRoot, root);
    scratch = await createScratchDatabase(baseUrl!);
    // Netlify's build command in the production context: NETLIFY and CONTEXT exist only here.
    const build = spawnSync(process.execPath, ["src/server/build/build-site.ts"], {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, NETLIFY: "true", CONTEXT: "production", DATABASE_URL: scratch.url, SITE_URL, DATA_DIR: path.join(root, ".data"), SITE_DIR: "" },
    });
    if (build.status !== 0) throw new Error(`The build failed:\n${build.stdout}\n${build.stderr}`);
    const builtDb = await openDatabase({ driver: "pg", url: scratch.url });
    try {
      const [row] = await builtDb.db.select().from(publishState);
      built = { stamp: row!.siteStamp!, textStamps: row!.siteTextStamps! };
    } finally {
      await builtDb.close();
    }
    expect(built.stamp).toMatch(/\S/);
    expect(built.textStamps.length).toBeGreaterThan(0);
    // Then, as on Netlify, the functions are bundled (after the build: chapter pages need its shell).
    functions = await packFunctions(root, path.join(root, ".netlify", "functions"));
  }, 300_000);

  afterAll(async () => {
    await scratch?.drop();
    fs.rmSync(WORK, { recursive: true, force: true });
  });

  describe("the bundles", () => {
    it("packs every function, each within Netlify's 50 MB and our budgets: one for the API, one for the pages, the upload and the scheduled jobs", () => {
      expect(functions.map((fn) => fn.name).sort()).toEqual(["api", "chapter-page", "lead-webhooks", "retention", "scheduled-publishing", "upload"]);
      const sources = fs.readdirSync(path.join(projectRoot, "netlify/functions")).filter((file) => file.endsWith(".ts"));
      expect(functions.map((fn) => fn.name).sort()).toEqual(sources.map((file) => file.replace(/\.ts$/, "")).sort());
      for (const fn of functions) {
        expect(fn.bytes, fn.name).toBeLessThan(NETLIFY_ZIP_LIMIT);
        expect(fn.bytes, `${fn.name} zipped`).toBeLessThanOrEqual(fn.name === "upload" ? 20 * MB : fn.name === "api" ? 2 * MB : 1 * MB);
        expect(fn.runtimeVersion, fn.name).toBe("nodejs24.x");
      }
    });

    it("schedules the jobs as Netlify reads their config: failed cache purges and due drafts every 15 minutes", () => {
      expect(Object.fromEntries(functions.filter((fn) => fn.schedule).map((fn) => [fn.name, fn.schedule]))).toEqual({
        "lead-webhooks": "*/15 * * * *",
        retention: "@daily",
        "scheduled-publishing": "*/15 * * * *",
      });
    });

    it("keeps the embedded database and the node binary out of every bundle, and sharp in the upload only", () => {
      for (const fn of functions) {
        const files = filesOf(fn);
        expect(files.filter((file) => file.includes("@electric-sql/pglite")), fn.name).toEqual([]);
        expect(files.filter((file) => /node_modules\/node(-bin[^/]*)?\//.test(file)), fn.name).toEqual([]);
        expect(files.some((file) => /node_modules\/(sharp|@img)\//.test(file)), fn.name).toBe(fn.name === "upload");
      }
    });

    it("bundles the pages the chapter function fills in, from this deploy's build", () => {
      const files = filesOf(byName("chapter-page"));
      for (const page of ["dist/chapter-shell.html", "dist/chapter-not-found.html", "dist/404.html", "dist/page-notice.html"]) expect(files).toContain(page);
      expect(fs.readFileSync(path.join(byName("chapter-page").dir, "dist/chapter-shell.html"), "utf8")).toBe(
        fs.readFileSync(path.join(root, "dist/chapter-shell.html"), "utf8"),
      );
      expect(filesOf(byName("api"))).toContain("content/assessment.yaml");
    });
  });

  describe("deploy contexts", () => {
    it("refuses a deploy-preview build pointed at the production database, before it changes anything", async () => {
      const before = await readPublishRow(scratch.url);
      const preview = spawnSync(process.execPath, ["src/server/build/build-site.ts"], {
        cwd: root,
        encoding: "utf8",
        env: { ...process.env, NETLIFY: "true", CONTEXT: "deploy-preview", DATABASE_URL: scratch.url, SITE_URL, DATA_DIR: path.join(root, ".data"), SITE_DIR: path.join(root, "preview-dist") },
      });
      expect(preview.status).toBe(1);
      expect(preview.stderr).toMatch(/deploy-preview build's DATABASE_URL points at the production database .*Nothing was changed/);
      expect(fs.existsSync(path.join(root, "preview-dist"))).toBe(false);
      expect(await readPublishRow(scratch.url)).toEqual(before);
    }, 60_000);
  });

  for (const driver of ["pg", "neon"] as const) {
    describe(`run on PostgreSQL through ${driver}`, () => {
      let database: DatabaseHandle;
      let url: string;
      let dropOwn: (() => Promise<void>) | undefined;
      let relay: Relay | undefined;
      let site: NetlifyEmulator;

      beforeAll(async () => {
        if (driver === "pg") {
          url = scratch.url; // the database the production build migrated and seeded
        } else {
          const own = await createScratchDatabase(baseUrl!);
          ({ url } = own);
          dropOwn = own.drop;
          relay = await startNeonRelay();
        }
        database = await openDatabase({ driver: "pg", url });
        if (driver === "neon") {
          // The same seed book, and the publish state of the deploy built from it.
          await database.migrate();
          await seed(database.db);
          await markPublished(database.db, new Date(), built);
        }
        site = await startNetlifyEmulator({
          functions,
          siteDir: path.join(root, "dist"),
          variables: {
            DATABASE_URL: url,
            SESSION_SECRET,
            BUILD_HOOK_URL,
            ...(driver === "neon" ? { DATABASE_DRIVER: "neon" } : {}),
          },
          neonRelayPort: relay?.port,
        });
      }, 120_000);

      afterAll(async () => {
        await site?.close();
        await database?.close();
        await relay?.close();
        await dropOwn?.();
      });

      it("answers every /api route of the manifest, never with a 5xx, and JSON from the API", async () => {
        const [first] = await listChapters(database.db);
        const sample: Record<string, string> = { slug: first!.slug, chapterId: String(first!.id), id: String(first!.id), login: "nobody", name: "0".repeat(32) + ".jpg" };
        const paths = API_PATTERNS.filter((p) => p.startsWith("/api/"));
        expect(paths.length).toBeGreaterThan(40);
        for (const pattern of [...paths, "/api/no-such-route"]) {
          const pathname = pattern.replace(/:(\w+)/g, (_, name: string) => sample[name] ?? "1");
          const response = await site.fetch(pathname);
          expect(response.status, `${pathname}\n${site.logs()}`).toBeLessThan(500);
          expect(response.headers.get("content-type"), pathname).toMatch(/^application\/json/);
        }
      }, 120_000);

      it("signs a client in and serves a locked chapter only with that session, from several instances", async () => {
        const chapters = await listChapters(database.db);
        const locked = chapters.find((c) => c.level === "Architect")!;
        expect((await site.fetch(`/${locked.slug}`)).headers.get("location")).toBe("/resume?level=Architect");
        const { cookie } = await loginAs(site.fetch, database.db, "Architect");
        expect(cookie).toMatch(/^__Host-sb_reader=/);
        for (let i = 0; i < 3; i++) {
          const page = await site.fetch(`/${locked.slug}`, { headers: { cookie } });
          expect(page.status).toBe(200);
          expect(page.headers.get("cache-control")).toBe("private, no-store");
          expect(await page.text()).toMatch(new RegExp(`<h1[^>]*>${locked.title}</h1>`));
        }
        expect((await site.fetch("/api/auth/session", { headers: { cookie } })).status).toBe(200);
        expect(site.instances("chapter-page")).toBeGreaterThanOrEqual(2);
        expect(site.instances("api")).toBeGreaterThanOrEqual(2);
      });

      it("wakes two functions for a member's whole visit: signing in, a locked chapter, reading, their place, a search, the profile, signing out", async () => {
        const before = site.invocations();
        const locked = (await listChapters(database.db)).find((c) => c.level === "Architect")!;
        const { cookie } = await loginAs(site.fetch, database.db, "Architect");
        const headers = { cookie, origin: SITE_URL };
        expect((await site.fetch(`/${locked.slug}`, { headers })).status).toBe(200);
        expect((await site.fetch("/api/auth/session", { headers })).status).toBe(200);
        expect((await site.fetch("/api/reading/heartbeat", jsonPost({ slug: locked.slug }, headers))).status).toBeLessThan(300);
        expect(await (await site.fetch("/api/reading/place", { headers })).json()).toMatchObject({ place: { slug: locked.slug } });
        expect((await site.fetch("/api/search?q=pattern", { headers })).status).toBe(200);
        expect((await site.fetch("/api/profile/stats", { headers })).status).toBe(200);
        expect((await site.fetch("/api/auth/logout", jsonPost({}, headers))).status).toBe(200);
        const after = site.invocations();
        expect(Object.keys(after).filter((name) => after[name] !== before[name]).sort()).toEqual(["api", "chapter-page"]);
      });

      it("runs a scan from start to result", async () => {
        const start = await site.fetch("/api/assessment/session", jsonPost({}));
        expect(start.status).toBe(201);
        const { id } = (await start.json()) as { id: string };
        for (let question = 1; question <= 15; question++) {
          const saved = await site.fetch("/api/assessment/response", jsonPost({ sessionId: id, questionNumber: question, answer: "B" }));
          expect(saved.status, String(question)).toBeLessThan(300);
        }
        const done = await site.fetch(`/api/assessment/session/${id}/complete`, jsonPost({ name: "Ada", email: "ada@example.com" }));
        expect(done.status).toBe(200);
        const result = (await done.json()) as { totalScore: number; level: string; description: string; scale: unknown; resultUrl: string };
        expect(result).toMatchObject({ totalScore: expect.any(Number), level: expect.any(String), description: expect.any(String), scale: { min: 15, max: 60 } });
        // Its private link opens the same result on another instance (the key is SESSION_SECRET).
        const opened = await site.fetch(`/api/assessment/result/${result.resultUrl.split("#")[1]}`);
        expect(opened.status, site.logs()).toBe(200);
        expect(opened.headers.get("cache-control")).toBe("private, no-store");
        expect(await opened.json()).toEqual({ totalScore: result.totalScore, level: result.level, description: result.description, scale: result.scale });
        // The page the link opens, at each address that serves its file: noindex, never cached.
        for (const pathname of [result.resultUrl.split("#")[0]!, "/assessment/result.html"]) {
          const page = await site.fetch(pathname);
          expect(page.status, pathname).toBe(200);
          expect(page.headers.get("x-robots-tag"), pathname).toBe("noindex, nofollow");
          expect(page.headers.get("cache-control"), pathname).toBe("private, no-store");
        }
      });

      it("sends a webhook test after the answer, refusing a receiver inside the private network in production", async () => {
        const { cookie } = await adminLogin(site.fetch, database.db);
        const refused = await site.fetch("/api/admin/webhooks", asAdmin(cookie, "POST", { url: "http://127.0.0.1:9/hook" }));
        expect(refused.status).toBe(400);
        // Saved past the check (as a name that resolves privately would be): delivery refuses it too.
        const [hook] = await database.db.insert(leadWebhooks).values({ url: "https://localhost/hook", secret: "whsec_test" }).returning();
        const sent = await site.fetch(`/api/admin/webhooks/${hook!.id}/test`, asAdmin(cookie, "POST"));
        expect(sent.status, site.logs()).toBe(202);
        await expect
          .poll(async () => (await database.db.select().from(webhookDeliveries)).find((d) => d.webhookId === hook!.id)?.lastError, { timeout: 10_000 })
          .toBe("The receiver's host name points into a private network, so nothing was sent.");
      });

      it("makes an admin edit live at once, withdraws a chapter moved to a locked level at once, and publishes through the build hook", async () => {
        const { cookie } = await adminLogin(site.fetch, database.db);
        const chapters = await listChapters(database.db);
        const open = chapters.filter((c) => c.level === "Operator")[1]!;
        // A reader's visit puts the page in the CDN's cache; the next one is served from there.
        expect((await site.fetch(`/${open.slug}`)).headers.get("cache-status")).toContain("stored");
        expect((await site.fetch(`/${open.slug}`)).headers.get("cache-status")).toContain("hit");

        const full = (await (await site.fetch(`/api/admin/chapters`, asAdmin(cookie))).json()) as Array<Record<string, unknown>>;
        const row = full.find((c) => c.slug === open.slug)!;
        const edit = { slug: row.slug, title: row.title, readingTime: row.readingTime, order: row.order, level: row.level };
        const hooksBefore = site.buildHookCalls;
        // Each save purges at once and again a second later (SECOND_PURGE_MS); a page cached
        // before that second purge lands is dropped by it, so each check of a hit waits for it.
        const purgesLanded = (count: number) => expect.poll(() => site.purges.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(count);
        const purgesBeforeEdit = site.purges.length;
        const edited = await site.fetch(`/api/admin/chapters/${row.id}`, asAdmin(cookie, "PUT", { ...edit, content: "A sentence written on the live site." }));
        expect(edited.status).toBe(200);
        const after = await site.fetch(`/${open.slug}`);
        expect(await after.text()).toContain("A sentence written on the live site.");
        expect(site.purges.at(-1)).toEqual(["book"]);
        // Live at once through the purge; the open level's text is in the static search index, so
        // a build follows for it.
        expect(site.buildHookCalls).toBe(hooksBefore + 1);
        expect(await (await site.fetch("/api/admin/publish", asAdmin(cookie))).json()).toMatchObject({ state: "publishing", pending: false });

        // Cached again, then moved to Mastermind: not served to anyone without access once the save returns.
        await purgesLanded(purgesBeforeEdit + 2);
        await site.fetch(`/${open.slug}`);
        expect((await site.fetch(`/${open.slug}`)).headers.get("cache-status")).toContain("hit");
        const moved = await site.fetch(`/api/admin/chapters/${row.id}`, asAdmin(cookie, "PUT", { ...edit, content: "Now locked.", level: "Mastermind" }));
        expect(moved.status).toBe(200);
        const savedAt = performance.now();
        const anonymous = await site.fetch(`/${open.slug}`);
        // The first request after the save is already refused: the exposure window ends with the save.
        expect(performance.now() - savedAt).toBeLessThan(1000);
        expect(anonymous.status).toBe(302);
        expect(anonymous.headers.get("location")).toBe("/resume?level=Mastermind");
        expect((await site.fetch(`/api/chapters/${open.slug}`)).status).toBe(401);
        // The list changed while that build runs: marked pending, for a build after it.
        expect(site.buildHookCalls).toBe(hooksBefore + 1);
        expect(await (await site.fetch("/api/admin/publish", asAdmin(cookie))).json()).toMatchObject({ state: "publishing", pending: true });

        const published = await site.fetch("/api/admin/publish", asAdmin(cookie, "POST"));
        expect(published.status).toBe(202);
        expect(site.buildHookCalls).toBe(hooksBefore + 2);

        // Deleted: the cached page goes with the save too, for the missing-chapter view.
        await purgesLanded(purgesBeforeEdit + 6); // the move's two and the publish's two
        const other = chapters.filter((c) => c.level === "Operator")[2]!;
        await site.fetch(`/${other.slug}`);
        expect((await site.fetch(`/${other.slug}`)).headers.get("cache-status")).toContain("hit");
        expect((await site.fetch(`/api/admin/chapters/${other.id}`, asAdmin(cookie, "DELETE"))).status).toBe(200);
        const deletedAt = performance.now();
        const gone = await site.fetch(`/${other.slug}`);
        expect(performance.now() - deletedAt).toBeLessThan(1000);
        expect(gone.status).toBe(404);
        expect(await gone.text()).toContain("The requested chapter could not be found.");
        // The delete's second purge (a second after it answered) lands before the next test.
        await purgesLanded(purgesBeforeEdit + 8);
      }, 60_000);

      it("keeps a purge the purge API refused (500) as a job: the scheduled function tries it again with backoff until the API is back, and the status shows it until done", async () => {
        // (The last save's second purge has landed: the previous test waits for it.)
        const { cookie } = await adminLogin(site.fetch, database.db);
        const open = (await listChapters(database.db)).filter((c) => c.level === "Operator").at(-1)!;
        await site.fetch(`/${open.slug}`);
        expect((await site.fetch(`/${open.slug}`)).headers.get("cache-status")).toContain("hit");
        // The CDN keeps it at most CDN_MAX_AGE_S, whatever happens to the purges.
        expect(site.cache.lookup(`/${open.slug}`)!.expires - Date.now()).toBeLessThanOrEqual(CDN_MAX_AGE_S * 1000);
        const status = async () =>
          (await (await site.fetch("/api/admin/publish", asAdmin(cookie))).json()) as {
            state: string;
            error: string | null;
            cachePurge: { state: string; attempts: number; nextAttemptAt: string | null };
          };
        const run = async () => {
          const response = await site.runScheduled("scheduled-publishing");
          expect(response.status, site.logs()).toBe(200);
          return ((await response.json()) as { cachePurges: { purged: number; failed: number } }).cachePurges;
        };
        /** The wait of the open purges has passed (the test does not wait minutes). */
        const waitPassed = () => database.db.update(cachePurges).set({ nextAttemptAt: new Date(Date.now() - 1000) }).where(isNull(cachePurges.doneAt));

        site.failPurges(500);
        try {
          const full = (await (await site.fetch(`/api/admin/chapters`, asAdmin(cookie))).json()) as Array<Record<string, unknown>>;
          const row = full.find((c) => c.slug === open.slug)!;
          const moved = await site.fetch(
            `/api/admin/chapters/${row.id}`,
            asAdmin(cookie, "PUT", { slug: row.slug, title: row.title, content: "Withdrawn while the purge API is down.", readingTime: row.readingTime, order: row.order, level: "Mastermind" }),
          );
          expect(moved.status).toBe(200); // the save is made; only its purge waits
          // The CDN still holds the page: the status says so, and that it is being retried.
          expect((await site.fetch(`/${open.slug}`)).headers.get("cache-status")).toContain("hit");
          let now = await status();
          expect(now.state).toBe("failed");
          expect(now.error).toMatch(/cached chapter pages could not be cleared .*500.* tried again automatically until it succeeds/);
          expect(now.cachePurge).toMatchObject({ state: "failed", attempts: 1 });

          // Before its wait has passed the scheduled run leaves it; after, it tries once more and waits longer.
          let requests = site.purgeRequests;
          expect(await run()).toMatchObject({ purged: 0, failed: 0 });
          expect(site.purgeRequests).toBe(requests);
          await waitPassed();
          expect(await run()).toMatchObject({ purged: 0, failed: 1 });
          expect(site.purgeRequests).toBe(requests + 1);
          now = await status();
          expect(now.cachePurge).toMatchObject({ state: "failed", attempts: 2 });
          expect(Date.parse(now.cachePurge.nextAttemptAt!) - Date.now()).toBeGreaterThan(90_000); // 2 minutes, after 1
          expect((await site.fetch(`/${open.slug}`)).status).toBe(200);

          // The API is back: the next scheduled run purges, the page is withdrawn, and the status says done.
          site.failPurges(null);
          await waitPassed();
          requests = site.purgeRequests;
          expect(await run()).toMatchObject({ purged: 1, failed: 0 });
          expect(site.purgeRequests).toBe(requests + 1);
          expect(site.purges.at(-1)).toEqual(["book"]);
          now = await status();
          expect(now.cachePurge.state).toBe("done");
          expect(now.state).not.toBe("failed");
          const anonymous = await site.fetch(`/${open.slug}`);
          expect(anonymous.status).toBe(302);
          expect(anonymous.headers.get("location")).toBe("/resume?level=Mastermind");
        } finally {
          site.failPurges(null);
        }
      }, 60_000);

      it("pages the submissions and streams their CSV from the database after the handler returned", async () => {
        for (let i = 0; i < 2; i++) expect((await site.fetch("/api/assessment/session", jsonPost({}))).status).toBe(201);
        const { cookie } = await adminLogin(site.fetch, database.db);
        const page = (await (await site.fetch("/api/admin/assessment/sessions?limit=1", asAdmin(cookie))).json()) as { total: number; nextCursor: string | null };
        expect(page.total).toBeGreaterThan(1);
        expect(page.nextCursor).not.toBeNull();
        const csv = await site.fetch("/api/admin/assessment/sessions.csv", asAdmin(cookie));
        expect(csv.status, site.logs()).toBe(200);
        expect((await csv.text()).trimEnd().split("\r\n")).toHaveLength(page.total + 1);
      });

      it("stores an uploaded photo in Netlify Blobs and serves it without the image library", async () => {
        const { cookie } = await adminLogin(site.fetch, database.db);
        const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#336699" } }).jpeg().toBuffer();
        const form = new FormData();
        form.set("photo", new Blob([new Uint8Array(jpeg)], { type: "image/jpeg" }), "photo.jpg");
        const uploaded = await site.fetch("/api/upload", { method: "POST", headers: { cookie, origin: SITE_URL }, body: form });
        expect(uploaded.status, site.logs()).toBe(200);
        const { photoUrl } = (await uploaded.json()) as { photoUrl: string };
        const served = await site.fetch(photoUrl);
        expect(served.status).toBe(200);
        expect(served.headers.get("content-type")).toBe("image/jpeg");
        expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).width).toBe(40);
      });

      it("keeps a member's notebook sealed: notes saved and read on several instances, one of the saves sent at once from one version kept", async () => {
        const chapter = (await listChapters(database.db)).find((c) => c.level === "Architect")!;
        const { cookie } = await loginAs(site.fetch, database.db, "Architect");
        const headers = { cookie, origin: SITE_URL };
        const { key, wrapped } = await makeKeys("a passphrase of the production check");
        const created = await site.fetch("/api/notebook", jsonPost(wrapped, headers));
        expect(created.status).toBe(201);
        const notebook = ((await created.json()) as { notebook: { id: string } }).notebook.id;
        const parts = (await (await site.fetch(`/api/chapters/${chapter.id}/subsections`, { headers })).json()) as Array<{ id: number; slug: string; title: string }>;
        const part = parts[0]!;
        const put = async (version: number, text: string) =>
          site.fetch(`/api/notebook/notes/${part.id}`, {
            method: "PUT",
            headers: { ...headers, "content-type": "application/json" },
            body: JSON.stringify({
              notebook,
              version,
              ...(await sealNote(key, { notebook, subsectionId: part.id, version: version + 1 }, { text, title: part.title, chapterSlug: chapter.slug, chapterTitle: chapter.title, sectionSlug: part.slug, level: "Architect" })),
            }),
          });
        expect((await put(0, "first")).status).toBe(200);
        const racing = await Promise.all(Array.from({ length: 6 }, (_, i) => put(1, `device ${i}`)));
        expect(racing.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
        expect(site.instances("api")).toBeGreaterThanOrEqual(2);
        const read = (await (await site.fetch(`/api/notebook/notes?chapter=${chapter.slug}`, { headers })).json()) as { notes: Array<{ subsectionId: number; version: number; iv: string; ciphertext: string }> };
        expect(read.notes.map((n) => [n.subsectionId, n.version])).toEqual([[part.id, 2]]);
        expect((await openNote(key, { notebook, subsectionId: part.id, version: 2 }, read.notes[0]!)).text).toMatch(/^device \d$/);
        expect(site.logs()).not.toMatch(/device \d/);
      });

      it("carries the direct line sealed: the operator's key made, a member's messages sent at once from several instances (one kept per sequence), the inbox listing them", async () => {
        const admin = (await adminLogin(site.fetch, database.db)).cookie;
        const operator = await newKeyPair();
        const { wrapped: vault } = await lockAway(MESSAGING_VAULT, operator.privateKey, "the production check's operator passphrase");
        const made = await site.fetch("/api/admin/messaging-key", asAdmin(admin, "POST", { publicKey: operator.publicKey, ...vault }));
        expect([201, 409], site.logs()).toContain(made.status);
        const operatorKey = ((await (await site.fetch("/api/admin/messaging-key", asAdmin(admin))).json()) as { key: { publicKey: string } }).key.publicKey;
        const { cookie } = await loginAs(site.fetch, database.db, "Mastermind");
        const headers = { cookie, origin: SITE_URL };
        const { key, wrapped } = await makeKeys("a passphrase of the production check");
        const notebook = ((await (await site.fetch("/api/notebook", jsonPost(wrapped, headers))).json()) as { notebook: { id: string } }).notebook.id;
        const member = await newKeyPair();
        const put = (path: string, body: unknown) => site.fetch(path, { method: "PUT", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(body) });
        expect((await put("/api/messages/keys", { notebook, publicKey: member.publicKey, privateKey: await sealMemberKey(key, notebook, member.privateKey), pin: await sealPin(key, notebook, operatorKey) })).status, site.logs()).toBe(200);
        const conversation = ((await (await site.fetch("/api/messages/conversation", { method: "POST", headers })).json()) as { id: string }).id;
        const line = await conversationKey(member.privateKey, operatorKey, { conversation, memberKey: member.publicKey, operatorKey });
        const send = async (sequence: number, text: string) =>
          site.fetch("/api/messages", jsonPost({ sequence, memberKey: member.publicKey, operatorKey, ...(await sealMessage(line, { conversation, sender: "member", sequence }, { text })) }, headers));
        const racing = await Promise.all(Array.from({ length: 4 }, (_, i) => send(1, `device ${i}`)));
        expect(racing.map((answer) => answer.status).sort(), site.logs()).toEqual([201, 409, 409, 409]);
        expect(site.instances("api")).toBeGreaterThanOrEqual(2);
        const inbox = (await (await site.fetch("/api/admin/conversations", asAdmin(admin))).json()) as { conversations: Array<{ id: string; tier: string; dueAt: string | null; last: { iv: string; ciphertext: string } }> };
        const entry = inbox.conversations.find((c) => c.id === conversation)!;
        expect(entry).toMatchObject({ tier: "Mastermind" });
        expect(entry.dueAt).not.toBeNull();
        expect((await openMessage(line, { conversation, sender: "member", sequence: 1 }, entry.last)).text).toMatch(/^device \d$/);
        expect(site.logs()).not.toMatch(/device \d/);
      });

      it("opens a connection per request and closes it after, even with requests at once on several instances", async () => {
        const name = new URL(url).pathname.slice(1);
        const observer = new pg.Client({ connectionString: baseUrl });
        await observer.connect();
        // Every connection to this database but the test's own (its pool is closed first).
        const held = async () =>
          Number(
            (await observer.query<{ count: string }>("select count(*) from pg_stat_activity where datname = $1", [name])).rows[0]!.count,
          );
        try {
          await database.close();
          const responses = await Promise.all(Array.from({ length: 8 }, () => site.fetch("/api/chapters")));
          for (const response of responses) expect(response.status).toBe(200);
          expect(site.instances("api")).toBeGreaterThanOrEqual(2);
          let left = await held();
          for (let tries = 0; left > 0 && tries < 50; tries++) {
            await new Promise((resolve) => setTimeout(resolve, 100));
            left = await held();
          }
          expect(left, "connections the functions left open").toBe(0);
        } finally {
          await observer.end();
          database = await openDatabase({ driver: "pg", url });
        }
      });
    });
  }

  describe("misconfigured, or out of connections", () => {
    /** One request to GET /api/chapters on a fresh instance with these variables. */
    async function chaptersWith(variables: Record<string, string>, deployContext = "production", neonRelayPort?: number) {
      // (One request: one instance is started, not the two a pool starts with.)
      const site = await startNetlifyEmulator({ functions: [byName("api")], siteDir: path.join(root, "dist"), variables, deployContext, neonRelayPort, instancesPerFunction: 1 });
      try {
        const response = await site.fetch("/api/chapters");
        return { status: response.status, body: await response.text(), logs: site.logs() };
      } finally {
        await site.close();
      }
    }

    it("answers 503 and names the missing variable in the function log, never falling back", async () => {
      // (Three sites of their own: at once.)
      const [noDatabase, noSecret, preview] = await Promise.all([
        chaptersWith({ SESSION_SECRET, BUILD_HOOK_URL }),
        chaptersWith({ DATABASE_URL: scratch.url, BUILD_HOOK_URL }),
        chaptersWith({ DATABASE_URL: scratch.url, SESSION_SECRET }, "deploy-preview"),
      ]);
      expect(noDatabase.status).toBe(503);
      expect(noDatabase.logs).toMatch(/DATABASE_URL is not set.*Functions scope/);
      expect(noSecret.status).toBe(503);
      expect(noSecret.logs).toMatch(/SESSION_SECRET is not set/);
      // A deploy preview never calls the production build hook, so it does not need one.
      expect(preview.status).toBe(200);
    }, 60_000);

    it("serves the chapter list, the chapter pages and the admin's sign-in without BUILD_HOOK_URL, and reports it in the publish status", async () => {
      const site = await startNetlifyEmulator({
        functions: [byName("api"), byName("chapter-page")],
        siteDir: path.join(root, "dist"),
        variables: { DATABASE_URL: scratch.url, SESSION_SECRET },
      });
      const database = await openDatabase({ driver: "pg", url: scratch.url });
      try {
        expect((await site.fetch("/api/chapters")).status, site.logs()).toBe(200);
        const open = (await listChapters(database.db)).find((c) => c.level === "Operator")!;
        const page = await site.fetch(`/${open.slug}`);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain(open.title);
        const { cookie } = await adminLogin(site.fetch, database.db); // throws unless 200
        const status = (await (await site.fetch("/api/admin/publish", asAdmin(cookie))).json()) as { state: string; error: string };
        expect(status).toMatchObject({ state: "failed", error: MISSING_HOOK });
        // A save still goes out to the chapter pages (purged); only the static pages wait, and the status says why.
        const full = (await (await site.fetch(`/api/admin/chapters`, asAdmin(cookie))).json()) as Array<Record<string, unknown>>;
        const row = full.find((c) => c.slug === open.slug)!;
        const purgesBefore = site.purges.length;
        const saved = await site.fetch(
          `/api/admin/chapters/${row.id}`,
          asAdmin(cookie, "PUT", { slug: row.slug, title: row.title, content: "Saved without a build hook.", readingTime: row.readingTime, order: row.order, level: row.level }),
        );
        expect(saved.status).toBe(200);
        expect(site.purges.length).toBeGreaterThan(purgesBefore);
        expect(await (await site.fetch(`/${open.slug}`)).text()).toContain("Saved without a build hook.");
        expect(await (await site.fetch("/api/admin/publish", asAdmin(cookie))).json()).toMatchObject({ state: "failed", error: MISSING_HOOK, pending: true });
        expect(site.buildHookCalls).toBe(0);
        // And the function log names it, for whoever reads that first.
        expect(site.logs()).toMatch(/BUILD_HOOK_URL is not set.*Functions scope/);
      } finally {
        await site.close();
        await database.close();
      }
    }, 60_000);

    it("answers 503, not 500, when the database refuses the connection (too many connections, 53300), through pg and Neon", async () => {
      const role = `sb_no_slots_${process.pid}`;
      const admin = new pg.Client({ connectionString: baseUrl });
      await admin.connect();
      await admin.query(`CREATE ROLE ${role} LOGIN CONNECTION LIMIT 0`);
      const relay = await startNeonRelay();
      try {
        const limited = new URL(scratch.url);
        limited.username = role;
        const variables = { DATABASE_URL: limited.href, SESSION_SECRET, BUILD_HOOK_URL };
        for (const answer of await Promise.all([chaptersWith(variables), chaptersWith({ ...variables, DATABASE_DRIVER: "neon" }, "production", relay.port)])) {
          expect(answer.status, answer.logs).toBe(503);
          expect(JSON.parse(answer.body)).toMatchObject({ error: { code: "database_unavailable" } });
        }
      } finally {
        await relay.close();
        await admin.query(`DROP ROLE ${role}`);
        await admin.end();
      }
    }, 60_000);
  });
});
