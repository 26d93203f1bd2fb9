/**
 * The book as files (issue 14: 4): export then import into an empty database gives the same book,
 * field by field, photos included, on PGlite and PostgreSQL; a second import changes nothing; a
 * dry run reports and writes nothing; a bad folder is refused naming the file, with nothing written.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { BlobsServer } from "@netlify/blobs/server";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChapter, deleteChapter } from "../../src/server/admin/chapters.ts";
import { createSubsection, deleteSubsection } from "../../src/server/admin/subsections.ts";
import { exportBook, readLiveBook } from "../../src/server/content/book-export.ts";
import { importBook } from "../../src/server/content/book-import.ts";
import { defaultBookDir } from "../../src/server/content/book.ts";
import type { Database } from "../../src/server/db/client.ts";
import { cleanImage, uploadFiles } from "../../src/server/uploads/image.ts";
import { localPhotoStore, netlifyPhotoStore, usePhotoStore, type PhotoStore } from "../../src/server/uploads/photo-store.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";
import { dumpEveryTable } from "../support/every-table.ts";

/** How the test saves its book: published unless it says draft. */
const saved = { now: new Date(), by: null };

const work = fs.mkdtempSync(path.join(os.tmpdir(), "sb-book-"));
afterAll(() => {
  usePhotoStore(undefined);
  fs.rmSync(work, { recursive: true, force: true });
});

/** The book without the database's own ids: what export and import must carry. */
const contentOf = async (db: Database) =>
  (await readLiveBook(db)).map(({ id: _id, subsections, ...chapter }) => ({
    ...chapter,
    subsections: subsections.map(({ id: _sid, ...part }) => part),
  }));

/** A book with the awkward values: YAML-looking titles, text with rules and spaces, every photo kind. */
async function writeBook(db: Database): Promise<string> {
  const image = await cleanImage(await sharp({ create: { width: 600, height: 400, channels: 3, background: "#336699" } }).jpeg().toBuffer());
  const upload = await uploadFiles(image, "0123456789abcdef0123456789abcdef");
  const store = localPhotoStore(path.join(work, "photos-source"));
  for (const file of upload.files) await store.put(file.name, file.bytes);
  usePhotoStore(store);

  const first = await createChapter(db, {
    slug: "signal-and-noise",
    title: 'Signal: "quoted" — #1 ünïcode',
    content: "  Indented first line.\n\n---\n\nAfter a rule.\n\n## Heading\n\n",
    readingTime: 0,
    order: 1,
    level: "Operator",
  }, saved);
  const locked = await createChapter(db, { slug: "locked-one", title: "true", content: "Architect text.", readingTime: 7, order: 3, level: "Architect", teaser: "What the locked chapter holds, in a sentence." }, saved);
  await createChapter(db, { slug: "deep", title: "123", content: "Mastermind text.", readingTime: 12, order: 2, level: "Mastermind" }, saved);
  await createChapter(db, { slug: "unfinished", title: "Unfinished", content: "A draft chapter.", readingTime: 2, order: 5, level: "Operator" }, { ...saved, draft: true });
  const gone = await createChapter(db, { slug: "gone", title: "Gone", content: "Deleted.", readingTime: 1, order: 4, level: "Operator" }, saved);
  await deleteChapter(db, gone.id);

  await createSubsection(db, { chapterId: first.id, slug: "uploaded", title: "- starts with a dash", content: "With an upload.", photo: upload.url, photoAlt: "A blue field", order: 0 }, saved);
  await createSubsection(db, { chapterId: first.id, slug: "public", title: "null", content: "With a site image.", photo: "/images/quiet-room.jpg", photoAlt: "Fog", order: 1 }, saved);
  await createSubsection(db, { chapterId: first.id, slug: "remote", title: "Remote: yes", content: "With a remote photo.", photo: "https://example.com/a.png", order: 2 }, saved);
  const dropped = await createSubsection(db, { chapterId: first.id, slug: "dropped", title: "Dropped", content: "Deleted.", order: 3 }, saved);
  await deleteSubsection(db, dropped.id);
  await createSubsection(db, { chapterId: locked.id, slug: "only", title: "Only", content: "Line one.\nLine two.\n", order: 5 }, saved);
  await createSubsection(db, { chapterId: locked.id, slug: "later", title: "Later", content: "A draft subsection.", order: 6 }, { ...saved, draft: true });
  return upload.url;
}

const photoNames = async (store: PhotoStore) => (await store.list()).map((p) => p.name).sort();

describe.each(databaseTargets().filter((t) => t.name !== "neon"))("the book as files on $name", (target) => {
  let source: TestDatabase;
  let fresh: TestDatabase;
  const folder = path.join(work, `${target.name}-book`);
  const sourcePhotos = localPhotoStore(path.join(work, "photos-source"));
  const freshPhotos = localPhotoStore(path.join(work, `${target.name}-photos`));
  let photoUrl: string;

  beforeAll(async () => {
    [source, fresh] = await Promise.all([target.open(), target.open()]);
    photoUrl = await writeBook(source.db);
  });
  afterAll(async () => {
    await Promise.all([source?.dispose(), fresh?.dispose()]);
  });

  it("exports every live chapter and subsection in content/book's layout, with their photos beside them, drafts marked and teasers kept", async () => {
    usePhotoStore(sourcePhotos);
    const summary = await exportBook(source.db, folder);
    expect(summary).toMatchObject({ chapters: 4, subsections: 5, photos: 2, missingPhotos: [] });
    const files = fs.readdirSync(folder, { recursive: true }).map(String).sort();
    const photoName = photoUrl.slice("/uploads/".length);
    expect(files).toEqual(
      [
        "architect",
        "architect/03-locked-one",
        "architect/03-locked-one/05-only.md",
        "architect/03-locked-one/06-later.md",
        "architect/03-locked-one/chapter.md",
        "mastermind",
        "mastermind/02-deep",
        "mastermind/02-deep/chapter.md",
        "operator",
        "operator/01-signal-and-noise",
        "operator/01-signal-and-noise/00-uploaded.md",
        "operator/01-signal-and-noise/01-public.md",
        "operator/01-signal-and-noise/02-remote.md",
        `operator/01-signal-and-noise/${photoName}`,
        "operator/01-signal-and-noise/chapter.md",
        "operator/01-signal-and-noise/quiet-room.jpg",
        "operator/05-unfinished",
        "operator/05-unfinished/chapter.md",
      ].sort(),
    );
    expect(fs.readFileSync(path.join(folder, "operator/01-signal-and-noise", photoName))).toEqual(Buffer.from((await sourcePhotos.get(photoName))!));
    expect(fs.readFileSync(path.join(folder, "mastermind/02-deep/chapter.md"), "utf8")).toBe(
      '---\nslug: deep\ntitle: "123"\nlevel: Mastermind\norder: 2\nreadingTime: 12\n---\nMastermind text.\n',
    );
    expect(fs.readFileSync(path.join(folder, "operator/05-unfinished/chapter.md"), "utf8")).toContain("\ndraft: true\n");
    expect(fs.readFileSync(path.join(folder, "architect/03-locked-one/06-later.md"), "utf8")).toContain("\ndraft: true\n");
    expect(fs.readFileSync(path.join(folder, "architect/03-locked-one/chapter.md"), "utf8")).toContain("\nteaser: What the locked chapter holds, in a sentence.\n");
    await expect(exportBook(source.db, folder)).rejects.toThrow(/is not an empty folder/);
  });

  it("imports into an empty database the same book, field by field, and stores the photos with their copies", async () => {
    usePhotoStore(freshPhotos);
    const report = await importBook(fresh.db, folder);
    expect(report.chapters.map((c) => [c.slug, c.action])).toEqual([
      ["signal-and-noise", "created"],
      ["unfinished", "created"],
      ["locked-one", "created"],
      ["deep", "created"],
    ]);
    expect(report.subsections.every((s) => s.action === "created")).toBe(true);
    expect(report.photos).toEqual([photoUrl.slice("/uploads/".length)]);
    expect(await contentOf(fresh.db)).toEqual(await contentOf(source.db));
    expect(await photoNames(freshPhotos)).toEqual(await photoNames(sourcePhotos));
  });

  it("changes nothing when the same folder is imported again", async () => {
    const before = await dumpEveryTable(fresh.db);
    const report = await importBook(fresh.db, folder);
    expect([...report.chapters, ...report.subsections].every((item) => item.action === "unchanged")).toBe(true);
    expect(report.photos).toEqual([]);
    expect(await dumpEveryTable(fresh.db)).toEqual(before);
  });

  it("reports a dry run's changes and writes nothing; the real run then makes them, leaving what the folder lacks", async () => {
    const chapterFile = path.join(folder, "operator/01-signal-and-noise/chapter.md");
    fs.writeFileSync(chapterFile, fs.readFileSync(chapterFile, "utf8").replace("readingTime: 0", "readingTime: 4").replace("After a rule.", "After a new rule."));
    fs.writeFileSync(path.join(folder, "mastermind/02-deep/01-added.md"), "---\ntitle: Added\nslug: added\norder: 1\n---\nNew text.\n");
    fs.rmSync(path.join(folder, "operator/01-signal-and-noise/02-remote.md"));
    const before = await dumpEveryTable(fresh.db);

    const dry = await importBook(fresh.db, folder, { dryRun: true });
    expect(dry.dryRun).toBe(true);
    expect(dry.chapters.find((c) => c.slug === "signal-and-noise")).toMatchObject({ action: "updated", changed: ["content", "readingTime"] });
    expect(dry.subsections.find((s) => s.slug === "added")).toMatchObject({ chapter: "deep", action: "created" });
    expect(dry.notInFolder).toEqual(["signal-and-noise/remote"]);
    expect(await dumpEveryTable(fresh.db)).toEqual(before);

    const real = await importBook(fresh.db, folder);
    expect({ ...real, dryRun: true }).toEqual(dry);
    const book = await contentOf(fresh.db);
    expect(book.find((c) => c.slug === "signal-and-noise")).toMatchObject({ readingTime: 4, content: expect.stringContaining("After a new rule.") });
    expect(book.find((c) => c.slug === "deep")!.subsections.map((s) => s.slug)).toEqual(["added"]);
    expect(book.find((c) => c.slug === "signal-and-noise")!.subsections.map((s) => s.slug)).toContain("remote");
  });

  it("refuses a bad folder, naming the file, and writes nothing", async () => {
    const before = await dumpEveryTable(fresh.db);
    const photosBefore = await photoNames(freshPhotos);
    const cases: Array<[string, (dir: string) => void, RegExp]> = [
      ["slug", (d) => edit(d, "operator/01-signal-and-noise/chapter.md", "slug: signal-and-noise", "slug: Signal And Noise"), /01-signal-and-noise\/chapter\.md: Slug: use lowercase letters.*\(front matter field "slug"\)/],
      ["reserved", (d) => edit(d, "operator/01-signal-and-noise/chapter.md", "slug: signal-and-noise", "slug: admin"), /chapter\.md: Slug: "admin" is the address of a page of the site/],
      ["front matter", (d) => fs.writeFileSync(path.join(d, "architect/03-locked-one/05-only.md"), "No front matter."), /05-only\.md: missing the front matter block/],
      ["unknown field", (d) => edit(d, "architect/03-locked-one/05-only.md", "order: 5", "order: 5\ncolour: red"), /05-only\.md: unknown front matter field "colour"/],
      ["yaml", (d) => edit(d, "architect/03-locked-one/05-only.md", "order: 5", "order: [5"), /05-only\.md: the front matter is not valid YAML/],
      ["empty text", (d) => edit(d, "architect/03-locked-one/05-only.md", /\n---\n[\s\S]*$/, "\n---\n   \n"), /05-only\.md: the text after the front matter: Content is required/],
      ["level", (d) => edit(d, "architect/03-locked-one/chapter.md", "level: Architect", "level: Wizard"), /chapter\.md: Level must be one of Operator, Architect, Mastermind/],
      ["reading time", (d) => edit(d, "architect/03-locked-one/chapter.md", "readingTime: 7", "readingTime: soon"), /chapter\.md: Reading time must be a number/],
      ["unpublish", (d) => edit(d, "mastermind/02-deep/chapter.md", "readingTime: 12", "readingTime: 12\ndraft: true"), /02-deep\/chapter\.md: says draft: true, but it is published; an import never unpublishes/],
      ["teaser", (d) => edit(d, "architect/03-locked-one/chapter.md", "teaser: What", `teaser: ${"x".repeat(301)} What`), /chapter\.md: Teaser must be at most 300 characters/],
      ["duplicate", (d) => fs.cpSync(path.join(d, "mastermind/02-deep"), path.join(d, "mastermind/09-deep-again"), { recursive: true }), /the chapter slug "deep" is used twice/],
      ["photo missing", (d) => fs.rmSync(path.join(d, "operator/01-signal-and-noise", photoUrl.slice(9))), /00-uploaded\.md: photo \/uploads\/.*: there is no file .* beside it, and the photo store does not have it/],
      ["not an image", (d) => fs.writeFileSync(path.join(d, "operator/01-signal-and-noise", photoUrl.slice(9)), "not an image"), /_600x400\.jpg: is not a JPEG, PNG, WebP, GIF or AVIF image/],
    ];
    usePhotoStore(localPhotoStore(path.join(work, `${target.name}-empty-photos`)));
    for (const [name, breakIt, message] of cases) {
      const broken = path.join(work, `${target.name}-broken-${name.replace(/ /g, "-")}`);
      fs.cpSync(folder, broken, { recursive: true });
      // A good new chapter beside the bad file: it must not be written either.
      fs.cpSync(path.join(broken, "mastermind/02-deep"), path.join(broken, "mastermind/07-fresh"), { recursive: true });
      edit(broken, "mastermind/07-fresh/chapter.md", "slug: deep", "slug: fresh");
      breakIt(broken);
      await expect(importBook(fresh.db, broken), name).rejects.toThrow(message);
    }
    usePhotoStore(freshPhotos);
    expect(await dumpEveryTable(fresh.db)).toEqual(before);
    expect(await photoNames(freshPhotos)).toEqual(photosBefore);
  });

  it.skipIf(target.name !== "pg")("runs two imports sent at once one after the other: the second finds everything in place", async () => {
    const empty = await target.open();
    try {
      usePhotoStore(freshPhotos);
      const [a, b] = await Promise.all([importBook(empty.db, folder), importBook(empty.db, folder)]);
      const actions = [a, b].map((r) => [...new Set(r.chapters.map((c) => c.action))]).sort();
      expect(actions).toEqual([["created"], ["unchanged"]]);
      const book = await contentOf(empty.db);
      expect(book.map((c) => c.slug)).toEqual(a.chapters.map((c) => c.slug));
      expect(book.flatMap((c) => c.subsections)).toHaveLength(a.subsections.length);
    } finally {
      await empty.dispose();
    }
  });

  it.skipIf(target.name !== "pglite")("exports the seed book exactly as content/book holds it", async () => {
    const seeded = path.join(work, "seed-export");
    usePhotoStore(freshPhotos);
    await importBook(fresh.db, defaultBookDir);
    await exportBook(fresh.db, seeded);
    const seedFiles = fs.readdirSync(defaultBookDir, { recursive: true }).map(String).filter((f) => f.endsWith(".md"));
    expect(seedFiles.length).toBeGreaterThan(30);
    for (const file of seedFiles) expect(fs.readFileSync(path.join(seeded, file), "utf8"), file).toBe(fs.readFileSync(path.join(defaultBookDir, file), "utf8"));
    expect(fs.existsSync(path.join(seeded, "operator/01-signal-and-noise/quiet-room.jpg"))).toBe(true);
  });
});

function edit(dir: string, file: string, from: string | RegExp, to: string): void {
  const full = path.join(dir, file);
  const text = fs.readFileSync(full, "utf8");
  const next = text.replace(from, to);
  if (next === text) throw new Error(`edit of ${file} changed nothing`);
  fs.writeFileSync(full, next);
}

describe("photos in a Netlify site's blob store (NETLIFY_SITE_ID and NETLIFY_AUTH_TOKEN)", () => {
  const blobsDir = path.join(work, "blobs");
  let server: BlobsServer;
  let database: TestDatabase;

  beforeAll(async () => {
    const token = "local-blobs-token";
    server = new BlobsServer({ directory: blobsDir, token });
    const { port } = await server.start();
    usePhotoStore(netlifyPhotoStore({ siteID: "test-site", token, edgeURL: `http://127.0.0.1:${port}` }));
    database = await databaseTargets()[0]!.open();
  });
  afterAll(async () => {
    usePhotoStore(undefined);
    await database?.dispose();
    await server?.stop();
  });

  it("stores an imported folder's photos there, and exports them from there", async () => {
    const folder = path.join(work, "blobs-book");
    fs.cpSync(path.join(work, "pglite-book"), folder, { recursive: true });
    const report = await importBook(database.db, folder);
    const [photo] = report.photos;
    expect(photo).toMatch(/^[a-f0-9]{32}_600x400\.jpg$/);
    const exported = path.join(work, "blobs-export");
    await exportBook(database.db, exported);
    expect(fs.readFileSync(path.join(exported, "operator/01-signal-and-noise", photo!))).toEqual(fs.readFileSync(path.join(folder, "operator/01-signal-and-noise", photo!)));
    expect(fs.readdirSync(blobsDir, { recursive: true }).map(String).filter((f) => f.includes(photo!.slice(0, 32))).length).toBeGreaterThan(1);
  });
});
