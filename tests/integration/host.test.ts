import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/server/db/client.ts";
import { chapters } from "../../src/server/db/schema.ts";
import { listen } from "../../src/server/host/host.ts";
import { projectRoot, startProduct } from "../support/product-server.ts";
import { apiClient } from "../support/api.ts";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-host-"));
const env = { DATA_DIR: dataDir, SITE_DIR: path.join(dataDir, "site"), DATABASE_URL: "" };

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const startServer = () => startProduct(env);

describe("npm start", () => {
  it("seeds an empty database, serves the site and the API, keeps data across restarts, and never re-seeds over it", async () => {
    const first = await startServer();
    expect(first.output()).toContain("Loaded the seed book");
    const home = await fetch(`${first.url}/`);
    expect(home.status).toBe(200);
    const list = (await (await fetch(`${first.url}/api/chapters`)).json()) as Array<{ slug: string; title: string; level: string }>;
    expect(list.length).toBeGreaterThanOrEqual(9);
    const page = await fetch(`${first.url}/${list[0]!.slug}`);
    expect(await page.text()).toContain(list[0]!.title);
    const missing = await fetch(`${first.url}/no/such-page`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("404 Page Not Found");

    // While the server holds the embedded database, nothing else may open it.
    const cli = spawnSync(process.execPath, [path.join(projectRoot, "src/server/cli/db-migrate.ts")], { env: { ...process.env, ...env }, encoding: "utf8" });
    expect(cli.status).not.toBe(0);
    expect(cli.stderr).toMatch(/in use by process \d+ \(is `npm start` running\?\)/);
    const codes = spawnSync(process.execPath, [path.join(projectRoot, "src/server/cli/codes.ts"), "create", "--level", "Architect", "--json"], {
      env: { ...process.env, ...env },
      encoding: "utf8",
    });
    expect(codes.status).not.toBe(0);
    expect(codes.stderr).toMatch(/in use by process \d+/);

    expect(await first.stop("SIGINT")).toBe(0);

    // An operator's edit made while the server is stopped (a chapter after the first, which `/`
    // names: the pages stay as they were built, decision 0029)...
    const renamed = list[1]!;
    const db = await openDatabase({ driver: "pglite", dataDir });
    await db.db.update(chapters).set({ title: "Renamed by the operator" }).where(eq(chapters.slug, renamed.slug));
    await db.close();

    // ...survives the next start: no re-seed, and the site follows its content (its index and sitemap).
    const second = await startServer();
    expect(second.output()).not.toContain("Loaded the seed book");
    expect(second.output()).toMatch(/Search index rewritten in [\d.]+ s \(the pages were current\)\./);
    const again = (await (await fetch(`${second.url}/api/chapters`)).json()) as Array<{ slug: string; title: string }>;
    expect(again).toHaveLength(list.length);
    expect(again[1]!.title).toBe("Renamed by the operator");
    expect(await (await fetch(`${second.url}/${renamed.slug}`)).text()).toContain("Renamed by the operator");
    expect(await second.stop()).toBe(0);

    // A text edit of the open level changes only the search index: the pages are not built again.
    const pages = () => Object.fromEntries(["index.html", "chapter-shell.html", "about.html"].map((name) => [name, fs.readFileSync(path.join(env.SITE_DIR, name), "utf8")]));
    const index = () => fs.readFileSync(path.join(env.SITE_DIR, "search-index", "entry.json"), "utf8");
    const [pagesBefore, indexBefore] = [pages(), index()];
    const edit = await openDatabase({ driver: "pglite", dataDir });
    const open = list.find((chapter) => chapter.level === "Operator")!;
    await edit.db.update(chapters).set({ content: "Words the operator wrote while the server was stopped." }).where(eq(chapters.slug, open.slug));
    await edit.close();
    const third = await startServer();
    expect(third.output()).toMatch(/Search index rewritten in [\d.]+ s \(the pages were current\)\./);
    expect(third.output()).not.toContain("Static site built");
    expect(pages()).toEqual(pagesBefore);
    expect(index()).not.toBe(indexBefore);
    // (`npm start` starts with no delta: the whole index, written again, is what the browser finds.)
    const search = await fetch(`${third.url}/search-index/entry.json`);
    expect(search.status).toBe(200);
    expect((await search.json()) as unknown).toMatchObject({ whole: { records: expect.any(Number) as number }, delta: null });
    expect(await third.stop()).toBe(0);

    const fourth = await startServer();
    expect(fourth.output()).toContain("The static site is up to date.");
    expect(await fourth.stop()).toBe(0);
  }, 180_000);
});

describe("graceful shutdown", () => {
  it("finishes the requests in flight before closing", async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const server = await listen(
      async (_req, res) => {
        await gate;
        res.end("finished");
      },
      0,
      "127.0.0.1",
    );
    const inFlight = fetch(`http://127.0.0.1:${server.port}/slow`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    let closed = false;
    // Draining may take two minutes, far beyond this test's time: it passes only if the server
    // closes once the last request is answered.
    const closing = server.close(120_000).then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(closed).toBe(false);
    await expect(fetch(`http://127.0.0.1:${server.port}/new`)).rejects.toThrow();
    release();
    const response = await inFlight;
    expect(await response.text()).toBe("finished");
    await closing;
    expect(closed).toBe(true);
  });
});

describe("database down", () => {
  it("GET /api/health answers 503 JSON, and so does a read", async () => {
    const handle = await openDatabase({ driver: "pg", url: "postgres://postgres@127.0.0.1:1/nothing" });
    const api = await apiClient(handle);
    for (const pathname of ["/api/health", "/api/chapters"]) {
      const response = await api(pathname);
      expect(response.status, pathname).toBe(503);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("database_unavailable");
    }
    await handle.close();
  });
});
