/**
 * What a change to the chapter list builds again (issue 45: 4, decision 0029): no page holds the
 * list, so a chapter added, renamed or moved anywhere but at the head of the open level rewrites
 * the sitemap and the search index only, and the pages stay as built; a new first open chapter
 * (which `/` names) builds the pages again.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSite, currentStamp } from "../../src/server/build/site-builder.ts";
import { seed } from "../../src/server/content/seed.ts";
import { openDatabase, type DatabaseHandle } from "../../src/server/db/client.ts";
import { chaptersFor } from "../../src/lib/level-chapters.ts";
import { chapters } from "../../src/server/db/schema.ts";
import { eq } from "../../src/server/db/orm.ts";
import { takeSnapshot } from "../../src/server/build/snapshot.ts";
import { createChapter } from "../support/factories.ts";

let database: DatabaseHandle;
const work = fs.mkdtempSync(path.join(os.tmpdir(), "sb-rebuild-"));
const outDir = path.join(work, "site");

beforeAll(async () => {
  database = await openDatabase({ driver: "pglite", dataDir: null });
  await database.migrate();
  await seed(database.db);
});
afterAll(async () => {
  await database?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe("a change to the chapter list", () => {
  it("rewrites the sitemap and the search index without building the pages, unless `/`'s first chapter changes", { timeout: 120_000 }, async () => {
    const build = async () => {
      const lines: string[] = [];
      await buildSite({ db: database.db, outDir, workDir: path.join(work, "work"), log: (line) => lines.push(line) });
      return lines.join("\n");
    };
    const read = (file: string) => fs.readFileSync(path.join(outDir, file), "utf8");
    expect(await build()).toMatch(/Static site built/);
    const pages = () => Object.fromEntries(["index.html", "chapter-shell.html", "apply.html", "about.html"].map((file) => [file, read(file)]));
    const before = pages();

    // A chapter added at the end of the open level: in the sitemap and the index, no page built.
    await createChapter(database.db, { level: "Operator", slug: "added-at-the-end", title: "Added at the End", order: 1000, content: "Words of a chapter added later." });
    expect(await build()).toMatch(/Search index rewritten in [\d.]+ s \(the pages were current\)/);
    expect(pages()).toEqual(before);
    expect(read("sitemap.xml")).toContain("/added-at-the-end</loc>");
    expect((JSON.parse(read("search-index/entry.json")) as { delta: { chapters: number } | null }).delta?.chapters).toBe(1);

    // The first open chapter renamed: `/` names it, so the pages' stamp moves and the next build
    // builds them (the road the build above took; host.test.ts follows it through a start).
    const { pagesStamp } = await currentStamp(database.db);
    const [first] = chaptersFor((await takeSnapshot(database.db)).chapters, "Operator", null);
    await database.db.update(chapters).set({ title: "A New Beginning" }).where(eq(chapters.id, first!.id));
    expect((await currentStamp(database.db)).pagesStamp).not.toBe(pagesStamp);
  });
});
