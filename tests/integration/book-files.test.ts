/**
 * The book as files (issue 14: 4): export then import into an empty database gives the same book,
 * field by field, photos included, on PGlite and PostgreSQL; a second import changes nothing; a
 * dry run reports and writes nothing; a bad folder is refused naming the file, with nothing written.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { BlobsServer } from "@netlify/blobs/server";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChapter, deleteChapter, updateChapter } from "../../src/server/admin/chapters.ts";
import { createSubsection, deleteSubsection, updateSubsection } from "../../src/server/admin/subsections.ts";
import { exportBook, readLiveBook } from "../../src/server/content/book-export.ts";
import { importBook } from "../../src/server/content/book-import.ts";
import { defaultBookDir } from "../../src/server/content/book.ts";
import type { Database } from "../../src/server/db/client.ts";
import { eq } from "../../src/server/db/orm.ts";
import { chapters, subsections } from "../../src/server/db/schema.ts";
import { cleanImage, uploadFiles } from "../../src/server/uploads/image.ts";
import { localPhotoStore, netlifyPhotoStore, usePhotoStore, type PhotoStore } from "../../src/server/uploads/photo-store.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";
import { dumpEveryTable } from "../support/every-table.ts";

/** How the test saves its book: published unless it says draft. */
const saved = { now: new Date(), by: null };

const work = fs.mkdtempSync(path.join(os.tmpdir(), "sb-book-"));
// An import runs in one transaction, on one connection: nothing may send it a statement while
// another is under way (pg warns now, and pg 9 refuses).
const busyClient: string[] = [];
const onWarning = (warning: Error) => {
  if (warning.message.includes("already executing a query")) busyClient.push(warning.message);
};
process.on("warning", onWarning);
afterAll(() => {
  process.off("warning", onWarning);
  usePhotoStore(undefined);
  fs.rmSync(work, { recursive: true, force: true });
  expect(busyClient).toEqual([]);
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
      ["slug", (d) => edit(d, "operator/01-signal-and-noise/chapter.md", "slug: signal-and-noise", "slug: Signal And Noise"), /01-signal-and-noise\/chapter\.md: Use only lowercase letters, digits and single hyphens.*\(front matter field "slug"\)/],
      ["reserved", (d) => edit(d, "operator/01-signal-and-noise/chapter.md", "slug: signal-and-noise", "slug: admin"), /chapter\.md: The site itself uses the address \/admin; choose another slug/],
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
  let blobsEdge: string;

  beforeAll(async () => {
    const token = "local-blobs-token";
    server = new BlobsServer({ directory: blobsDir, token });
    const { port } = await server.start();
    blobsEdge = `http://127.0.0.1:${port}`;
    usePhotoStore(netlifyPhotoStore({ siteID: "test-site", token, edgeURL: blobsEdge }));
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
    // The photo was cleaned on the way in (re-encoded as an upload is): the export gives back what was stored.
    const stored = await netlifyPhotoStore({ siteID: "test-site", token: "local-blobs-token", edgeURL: blobsEdge }).get(photo!);
    expect(fs.readFileSync(path.join(exported, "operator/01-signal-and-noise", photo!))).toEqual(Buffer.from(stored!));
    expect(await sharp(stored!).metadata()).toMatchObject({ format: "jpeg", width: 600, height: 400 });
    expect(fs.readdirSync(blobsDir, { recursive: true }).map(String).filter((f) => f.includes(photo!.slice(0, 32))).length).toBeGreaterThan(1);
  });
});

/**
 * Issue 21: 4 and 5. A folder is outside data: a link in it must never make the import publish a
 * file of the server, a photo must be cleaned as an upload is, a pending draft must not be dropped;
 * an export must never write outside its folder, whatever the database holds.
 */
describe.each(databaseTargets().filter((t) => t.name !== "neon"))("a book folder with a symlink and an EXIF-tagged photo on $name", (target) => {
  let database: TestDatabase;
  const root = path.join(work, `${target.name}-gate`);
  const folder = path.join(root, "book");
  const store = localPhotoStore(path.join(root, "photos"));
  const id = "fedcba9876543210fedcba9876543210";
  const photo = `${id}_600x400.jpg`;
  const chapterDir = path.join(folder, "operator/01-field");
  const chapterText = "---\nslug: field\ntitle: Field\nlevel: Operator\norder: 1\nreadingTime: 3\n---\nThe field.\n";
  const partText = `---\ntitle: With a photo\nslug: with-photo\norder: 1\nphoto: /uploads/${photo}\nphotoAlt: A field\n---\nA photo from a camera.\n`;
  /** A photo as a camera leaves it: its maker, and where it was taken. */
  const cameraPhoto = (width: number, height: number, maker = "CanaryCam") =>
    sharp({ create: { width, height, channels: 3, background: "#884422" } })
      .jpeg()
      .withExif({ IFD0: { Make: maker, Model: "Spy 1" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "51/1 30/1 0/1", GPSLongitudeRef: "W", GPSLongitude: "0/1 7/1 0/1" } })
      .toBuffer();
  /** A copy of the folder with something changed, as its own folder. */
  const variant = (name: string, change: (dir: string) => void | Promise<void>) => {
    const dir = path.join(root, name);
    fs.cpSync(folder, dir, { recursive: true });
    return Promise.resolve(change(dir)).then(() => dir);
  };

  beforeAll(async () => {
    database = await target.open();
    fs.mkdirSync(chapterDir, { recursive: true });
    fs.writeFileSync(path.join(chapterDir, "chapter.md"), chapterText);
    fs.writeFileSync(path.join(chapterDir, "01-with-photo.md"), partText);
    fs.writeFileSync(path.join(chapterDir, photo), await cameraPhoto(600, 400));
    // Elsewhere on the server: what a link in the folder could point at.
    fs.mkdirSync(path.join(root, "elsewhere/02-secret"), { recursive: true });
    fs.writeFileSync(path.join(root, "elsewhere/secret.jpg"), await cameraPhoto(600, 400, "SecretCam"));
    fs.writeFileSync(path.join(root, "elsewhere/secret.txt"), "password=hunter2\n");
    fs.writeFileSync(path.join(root, "elsewhere/02-secret/chapter.md"), chapterText.replace("slug: field", "slug: secret").replace("order: 1", "order: 2"));
    fs.writeFileSync(path.join(root, "elsewhere/secret.md"), "---\ntitle: Secret\nslug: secret\norder: 2\n---\nSecret text.\n");
  });
  afterAll(async () => {
    usePhotoStore(undefined);
    await database?.dispose();
  });

  it("refuses a symbolic link anywhere in the folder, naming it, and never copies the linked file", async () => {
    usePhotoStore(store);
    const before = await dumpEveryTable(database.db);
    const cases: Array<[string, (dir: string) => void, string]> = [
      ["the photo", (d) => { fs.rmSync(path.join(d, "operator/01-field", photo)); fs.symlinkSync(path.join(root, "elsewhere/secret.jpg"), path.join(d, "operator/01-field", photo)); }, `operator/01-field/${photo}`],
      ["a copy beside it", (d) => fs.symlinkSync(path.join(root, "elsewhere/secret.txt"), path.join(d, "operator/01-field", `${id}_600x400-480.webp`)), `operator/01-field/${id}_600x400-480.webp`],
      ["a subsection", (d) => fs.symlinkSync(path.join(root, "elsewhere/secret.md"), path.join(d, "operator/01-field/02-secret.md")), "operator/01-field/02-secret.md"],
      ["a chapter folder", (d) => fs.symlinkSync(path.join(root, "elsewhere/02-secret"), path.join(d, "operator/02-secret")), "operator/02-secret"],
    ];
    for (const [name, addLink, link] of cases) {
      const dir = await variant(`linked-${name.replace(/ /g, "-")}`, addLink);
      for (const dryRun of [true, false]) {
        await expect(importBook(database.db, dir, { dryRun }), name).rejects.toThrow(`${path.join(dir, link)}: is a symbolic link. An import never follows links`);
      }
    }
    expect(await store.list()).toEqual([]);
    expect(await dumpEveryTable(database.db)).toEqual(before);
  });

  it("stores the photo re-encoded as an upload is: no EXIF or GPS left, its copies made again rather than taken from the folder", async () => {
    usePhotoStore(store);
    // A copy beside it, as an export leaves them: with the camera's data, it must not be taken.
    const besideCopy = `${id}_600x400-480.webp`;
    fs.writeFileSync(path.join(chapterDir, besideCopy), await sharp(await cameraPhoto(480, 320)).keepExif().webp().toBuffer());
    expect((await sharp(fs.readFileSync(path.join(chapterDir, besideCopy))).metadata()).exif).toBeDefined();
    expect((await sharp(fs.readFileSync(path.join(chapterDir, photo))).metadata()).exif).toBeDefined();

    const report = await importBook(database.db, folder);
    expect(report.photos).toEqual([photo]);
    const stored = (await store.list()).map((p) => p.name).sort();
    expect(stored).toContain(photo);
    expect(stored).toContain(besideCopy);
    for (const name of stored) {
      const bytes = Buffer.from((await store.get(name))!);
      const meta = await sharp(bytes).metadata();
      expect(meta.exif, name).toBeUndefined();
      expect(meta.xmp, name).toBeUndefined();
      expect(bytes.includes("CanaryCam"), name).toBe(false);
    }
    expect(await sharp(Buffer.from((await store.get(photo))!)).metadata()).toMatchObject({ format: "jpeg", width: 600, height: 400 });
    expect(Buffer.from((await store.get(besideCopy))!)).not.toEqual(fs.readFileSync(path.join(chapterDir, besideCopy)));
    fs.rmSync(path.join(chapterDir, besideCopy));
  });

  it("refuses a photo that is not what its name says, before anything is written", async () => {
    const empty = localPhotoStore(path.join(root, "no-photos"));
    usePhotoStore(empty);
    const before = await dumpEveryTable(database.db);
    const smaller = await variant("smaller-photo", async (d) => fs.writeFileSync(path.join(d, "operator/01-field", photo), await cameraPhoto(300, 200)));
    await expect(importBook(database.db, smaller)).rejects.toThrow(/_600x400\.jpg: its name says 600 × 400 pixels, but the image is 300 × 200 pixels, JPEG/);
    const gif = await variant("gif-photo", async (d) =>
      fs.writeFileSync(path.join(d, "operator/01-field", photo), await sharp({ create: { width: 600, height: 400, channels: 3, background: "#000" } }).gif().toBuffer()),
    );
    await expect(importBook(database.db, gif)).rejects.toThrow(/its name says 600 × 400 pixels, but the image is 600 × 400 pixels, GIF/);
    expect(await empty.list()).toEqual([]);
    expect(await dumpEveryTable(database.db)).toEqual(before);
    usePhotoStore(store);
  });

  it("never drops a pending draft: an import that would change its item stops, naming it; one that leaves the item alone keeps it", async () => {
    usePhotoStore(store);
    const [chapter] = await readLiveBook(database.db);
    const part = chapter!.subsections[0]!;
    const now = new Date("2026-11-20T09:30:00Z");
    await updateChapter(database.db, chapter!.id, { slug: "field", title: "Field", content: "A better field, in progress.", readingTime: 3, order: 1, level: "Operator" }, { now, by: "editor@example.com", draft: true });
    const before = await dumpEveryTable(database.db);

    const changedChapter = await variant("changed-chapter", (d) => edit(d, "operator/01-field/chapter.md", "The field.", "The field, from the folder."));
    for (const dryRun of [true, false]) {
      await expect(importBook(database.db, changedChapter, { dryRun })).rejects.toThrow(
        `${path.join(changedChapter, "operator/01-field/chapter.md")}: "Field" has a draft saved in the admin panel by editor@example.com on 2026-11-20 09:30 UTC and not yet published; importing would replace it.`,
      );
    }
    expect(await dumpEveryTable(database.db)).toEqual(before);

    // The chapter unchanged, its subsection changed: imported, and the chapter's draft is still there.
    const changedPart = await variant("changed-part", (d) => edit(d, "operator/01-field/01-with-photo.md", "A photo from a camera.", "A photo, described again."));
    const report = await importBook(database.db, changedPart);
    expect(report.subsections).toMatchObject([{ slug: "with-photo", action: "updated", changed: ["content"] }]);
    const [row] = await database.db.select().from(chapters).where(eq(chapters.id, chapter!.id));
    expect(row).toMatchObject({ content: "The field.", draft: expect.objectContaining({ content: "A better field, in progress." }), draftSavedBy: "editor@example.com" });

    // The same for a subsection's draft.
    await updateSubsection(database.db, part.id, { chapterId: chapter!.id, title: "With a photo", content: "Drafted words.", photo: `/uploads/${photo}`, photoAlt: "A field" }, { now, by: null, draft: true });
    const again = await variant("changed-part-again", (d) => edit(d, "operator/01-field/01-with-photo.md", "A photo from a camera.", "A photo, described once more."));
    await expect(importBook(database.db, again)).rejects.toThrow(/01-with-photo\.md: "With a photo" has a draft saved in the admin panel on 2026-11-20 09:30 UTC and not yet published/);
    const [kept] = await database.db.select().from(subsections).where(eq(subsections.id, part.id));
    expect(kept).toMatchObject({ content: "A photo, described again.", draft: expect.objectContaining({ content: "Drafted words." }) });
  });

  it("keeps the time a draft chapter is scheduled to be published at", async () => {
    const publishAt = new Date("2030-01-01T08:00:00Z");
    const draft = await createChapter(database.db, { slug: "later", title: "Later", content: "Not yet.", readingTime: 1, order: 4, level: "Operator" }, { now: new Date(), by: null, draft: true, publishAt });
    const dir = await variant("scheduled", (d) => {
      // As the database has it since the test before (whose subsection holds a draft).
      edit(d, "operator/01-field/01-with-photo.md", "A photo from a camera.", "A photo, described again.");
      fs.mkdirSync(path.join(d, "operator/04-later"));
      fs.writeFileSync(path.join(d, "operator/04-later/chapter.md"), "---\nslug: later\ntitle: Later\nlevel: Operator\norder: 4\nreadingTime: 1\ndraft: true\n---\nNot yet, but nearly.\n");
    });
    const report = await importBook(database.db, dir);
    expect(report.chapters.find((c) => c.slug === "later")).toMatchObject({ action: "updated", changed: ["content"] });
    const [row] = await database.db.select().from(chapters).where(eq(chapters.id, draft.id));
    expect(row).toMatchObject({ content: "Not yet, but nearly.", status: "draft", publishAt });
  });

  it("never writes outside its folder, even for a bad photo address or slug already in the database", async () => {
    usePhotoStore(store);
    // A site that answers every address, so a photo address is always "found" there.
    const server = http.createServer((_request, response) => response.end("EVIL BYTES"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const site = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const outer = path.join(root, "export-outer");
    try {
      const [chapter] = await readLiveBook(database.db);
      const bad = "/uploads/x%2F..%2F..%2F..%2F..%2Fevil";
      const [part] = await database.db.insert(subsections).values({ chapterId: chapter!.id, slug: "climbing", title: "Climbing", content: "Text.", photo: bad, photoAlt: "Evil", order: 7 }).returning();
      const target = path.join(outer, "deep/book");
      const summary = await exportBook(database.db, target, { site });
      const everything = fs.readdirSync(outer, { recursive: true }).map(String);
      expect(everything.filter((f) => !f.startsWith(path.join("deep", "book")))).toEqual(["deep"]);
      expect(everything.some((f) => fs.statSync(path.join(outer, f)).isFile() && fs.readFileSync(path.join(outer, f), "utf8") === "EVIL BYTES")).toBe(false);
      expect(summary.refusedPhotos).toEqual([`${bad} (field/climbing)`]);
      expect(fs.readFileSync(path.join(target, "operator/01-field/07-climbing.md"), "utf8")).toContain(`photo: ${bad}`);

      // A slug that climbs: the export stops, naming it, and writes nothing anywhere.
      await database.db.update(subsections).set({ slug: "a/../../../../escape", photo: null }).where(eq(subsections.id, part!.id));
      const second = path.join(outer, "deep/second");
      await expect(exportBook(database.db, second, { site })).rejects.toThrow(/The subsection "field\/a\/\.\.\/\.\.\/\.\.\/\.\.\/escape" would be written outside the folder/);
      expect(fs.readdirSync(path.join(outer, "deep")).sort()).toEqual(["book"]);
      await database.db.delete(subsections).where(eq(subsections.id, part!.id));
    } finally {
      server.close();
    }
  });
});
