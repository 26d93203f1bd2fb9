/**
 * Parity with Netlify: Netlify's own emulator (@netlify/dev) and the local host answer the same
 * requests alike, over the same built site and database. The cases come from netlify.toml and
 * from every address the functions answer (tests/support/routes.ts), so a new route is covered
 * without editing this file.
 * Needs PostgreSQL (TEST_DATABASE_URL): the emulator runs functions in worker threads of this
 * process, and the embedded database cannot be shared that way.
 * The emulator's functions are bundled once and kept warm, as on Netlify (warm-functions.ts):
 * unchanged, it bundles and loads the API again for every request (about 3 s each).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { NetlifyDev } from "@netlify/dev";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSite } from "../../src/server/build/site-builder.ts";
import { openDatabase, type DatabaseHandle } from "../../src/server/db/client.ts";
import { seed } from "../../src/server/content/seed.ts";
import { useDatabase } from "../../src/server/db/index.ts";
import { createFetchHandler } from "../../src/server/host/app.ts";
import { loadFunctions } from "../../src/server/host/functions.ts";
import { projectRoot, readNetlifyConfig } from "../../src/server/host/netlify-config.ts";
import { StaticSite } from "../../src/server/host/static-site.ts";
import { listChapters } from "../../src/server/repositories/chapters.ts";
import { createScratchDatabase, testDatabaseUrl } from "../support/databases.ts";
import { FUNCTION_PATTERNS } from "../support/routes.ts";
import { warmFunctions, type WarmFunctions } from "./warm-functions.ts";
import { parse } from "smol-toml";

const baseUrl = testDatabaseUrl();
const ORIGIN = "http://localhost:8888";

describe.skipIf(!baseUrl)("Netlify parity (@netlify/dev vs the local host)", () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let database: DatabaseHandle;
  let siteRoot: string;
  let dev: NetlifyDev;
  let warm: WarmFunctions | undefined;
  let local: (request: Request) => Promise<Response>;
  const sample: Record<string, string> = {};

  beforeAll(async () => {
    scratch = await createScratchDatabase(baseUrl!);
    database = await openDatabase({ driver: "pg", url: scratch.url });
    await database.migrate();
    await seed(database.db);
    useDatabase(database);
    // What functions get at run time on Netlify. @netlify/dev runs them in this process and defines
    // the Netlify global here, so the local host's functions below see the same platform.
    process.env.DATABASE_URL = scratch.url;
    process.env.SESSION_SECRET = "a-session-secret-of-the-parity-test-0123456789";

    // A project root of its own: the same netlify.toml and functions, with a site built here.
    siteRoot = fs.mkdtempSync(path.join(os.tmpdir(), "sb-parity-"));
    // (Netlify's bundler does not follow symlinked source folders: copy them; link node_modules.)
    for (const entry of ["netlify", "src", "public", "package.json", "netlify.toml", "astro.config.mjs", "tsconfig.json"]) {
      fs.cpSync(path.join(projectRoot, entry), path.join(siteRoot, entry), { recursive: true });
    }
    fs.symlinkSync(path.join(projectRoot, "node_modules"), path.join(siteRoot, "node_modules"));
    await buildSite({ db: database.db, outDir: path.join(siteRoot, "dist"), workDir: path.join(siteRoot, "work") });
    // A deployed function runs from its bundle's root (LAMBDA_TASK_ROOT), which holds the pages
    // netlify.toml includes; @netlify/dev does not set it.
    process.env.LAMBDA_TASK_ROOT = siteRoot;

    const netlify = readNetlifyConfig(path.join(siteRoot, "netlify.toml"));
    const functions = await loadFunctions(netlify.functionsDir);
    const site = new StaticSite(netlify.publish);
    local = createFetchHandler({ netlify, functions, site: () => site });

    const chapters = await listChapters(database.db);
    Object.assign(sample, { slug: chapters[0]!.slug, chapterId: String(chapters[0]!.id), id: String(chapters[0]!.id) });

    dev = new NetlifyDev({
      projectRoot: siteRoot,
      blobs: { enabled: false },
      database: { enabled: false },
      edgeFunctions: { enabled: false },
      images: { enabled: false },
      aiGateway: { enabled: false },
      geolocation: { enabled: false },
      environmentVariables: { enabled: false },
    });
    warm = warmFunctions();
    await dev.start();
  }, 300_000);

  afterAll(async () => {
    await dev?.stop();
    await warm?.restore();
    await database?.close();
    await scratch?.drop();
    if (siteRoot) fs.rmSync(siteRoot, { recursive: true, force: true });
    delete process.env.DATABASE_URL;
    delete process.env.SESSION_SECRET;
    delete process.env.LAMBDA_TASK_ROOT;
  });

  async function both(pathname: string) {
    // As production is served: over HTTPS (the local host sends HSTS only then).
    const init: RequestInit = { redirect: "manual", headers: { "x-forwarded-proto": "https" } };
    const [netlifyAnswer, localResponse] = await Promise.all([
      dev.handleAndIntrospect(new Request(ORIGIN + pathname, init)),
      local(new Request(ORIGIN + pathname, init)),
    ]);
    return { remote: netlifyAnswer?.response, local: localResponse };
  }

  it("serves a chapter page with the same bytes and netlify.toml's headers", async () => {
    const { remote, local: mine } = await both(`/${sample.slug}`);
    expect(remote?.status).toBe(200);
    expect(mine.status).toBe(200);
    expect(await mine.text()).toBe(await remote!.text());
    const rules = (parse(fs.readFileSync(path.join(projectRoot, "netlify.toml"), "utf8")) as {
      headers: Array<{ for: string; values: Record<string, string> }>;
    }).headers.filter((rule) => rule.for === "/*");
    for (const [name, value] of Object.entries(rules[0]!.values)) {
      expect(mine.headers.get(name), name).toBe(value);
      expect(remote!.headers.get(name), name).toBe(value);
    }
    // What Netlify's CDN is told to do with it (docs/decisions/0007): the same from both.
    for (const name of ["cache-control", "netlify-cdn-cache-control", "netlify-cache-tag"]) {
      expect(remote!.headers.get(name), name).toBeTruthy();
      expect(mine.headers.get(name), name).toBe(remote!.headers.get(name));
    }
  }, 120_000); // (the first answer waits for @netlify/dev's first bundles)

  it("answers every redirect of netlify.toml alike", async () => {
    const { redirects } = parse(fs.readFileSync(path.join(projectRoot, "netlify.toml"), "utf8")) as {
      redirects: Array<{ from: string; to: string; status: number }>;
    };
    expect(redirects.length).toBeGreaterThan(0);
    for (const rule of redirects) {
      const pathname = rule.from.replace("*", "anything");
      const { remote, local: mine } = await both(pathname);
      expect(mine.status, pathname).toBe(rule.status);
      expect(remote?.status, pathname).toBe(mine.status);
      const where = (response: Response) =>
        response.headers.get("location") && new URL(response.headers.get("location")!, ORIGIN).pathname;
      expect(where(mine), pathname).toBe(where(remote!));
      // A 404 rewrite to a page: Netlify answers with that page (docs: Redirects > custom 404 pages);
      // @netlify/dev answers a plain 'Not found', so only the status is compared.
      if (rule.status === 404 && rule.to.endsWith(".html")) expect(await mine.text(), pathname).toContain("404 Page Not Found");
    }
  }, 120_000);

  it("answers the result page's noindex and no-store at every address that serves it, alike", async () => {
    for (const pathname of ["/assessment/result", "/assessment/result.html", "/assessment/result/"]) {
      const { remote, local: mine } = await both(pathname);
      expect(remote, pathname).toBeDefined();
      for (const response of [remote!, mine]) {
        expect(response.headers.get("x-robots-tag"), pathname).toBe("noindex, nofollow");
        expect(response.headers.get("cache-control"), pathname).toBe("private, no-store");
      }
    }
  }, 120_000);

  it("answers every function route alike", async () => {
    // Every address of the API's route table and the page function, and one no route holds: a few
    // at a time (each of the emulator's answers waits mostly on its function's start).
    const pathnames = [...FUNCTION_PATTERNS, "/api/no-such-route"].map((pattern) => pattern.replace(/:(\w+)/g, (_, name: string) => sample[name] ?? "1"));
    const AT_ONCE = 4;
    for (let i = 0; i < pathnames.length; i += AT_ONCE) {
      const answers = await Promise.all(
        pathnames.slice(i, i + AT_ONCE).map(async (pathname) => {
          const { remote, local: mine } = await both(pathname);
          return { pathname, remote, mine, remoteText: await remote?.text(), mineText: await mine.text() };
        }),
      );
      for (const { pathname, remote, mine, remoteText, mineText } of answers) {
        expect(remote, pathname).toBeDefined();
        expect(mine.status, pathname).toBe(remote!.status);
        expect(mine.headers.get("content-type"), pathname).toBe(remote!.headers.get("content-type"));
        expect(mineText, pathname).toBe(remoteText);
      }
    }
    // The emulator ran its functions warm (were it not, this file takes minutes: warm-functions.ts).
    expect(warm!.invocations).toBeGreaterThanOrEqual(pathnames.length);
  }, 600_000);
});
