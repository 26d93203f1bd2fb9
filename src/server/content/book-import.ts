/**
 * `npm run book -- import DIR [--dry-run]`: creates or updates chapters by slug, and their
 * subsections by slug within the chapter, from a folder in the layout of content/book
 * (book-folder.ts). Nothing in the database that the folder lacks is deleted.
 *
 * Every file is read and checked first, photos included; a bad file stops the import before
 * anything is written. The changes are then made in one transaction, through the admin panel's
 * own create and update functions (so the same rules and side effects apply); photos are stored
 * before it (should the transaction then fail, a photo nothing uses is removed by the retention
 * job like any unused upload). A dry run reports the same plan and writes nothing.
 */
import fs from "node:fs";
import path from "node:path";
import { sizedPhoto } from "../../lib/photo-sizes.ts";
import { levelOf } from "../../lib/levels.ts";
import { createChapter, updateChapter } from "../admin/chapters.ts";
import { createSubsection, updateSubsection } from "../admin/subsections.ts";
import { lockList } from "../db/ordering.ts";
import type { Database } from "../db/types.ts";
import { schedulePublish } from "../publish/publisher.ts";
import { PHOTO_NAME, photoIdOf, photoStore } from "../uploads/photo-store.ts";
import { ContentError } from "./book.ts";
import { readLiveBook } from "./book-export.ts";
import { photoFileName, readBookFolder, type FolderChapter } from "./book-folder.ts";

export type Action = "created" | "updated" | "unchanged";

export interface ImportReport {
  dryRun: boolean;
  chapters: Array<{ slug: string; level: string; action: Action; changed: string[] }>;
  subsections: Array<{ chapter: string; slug: string; action: Action; changed: string[] }>;
  /** Photos from the folder put into the photo store (those it held already are not listed). */
  photos: string[];
  /** Live chapters and subsections the folder does not have: left as they are. */
  notInFolder: string[];
}

const CHAPTER_FIELDS = ["title", "content", "level", "order", "readingTime", "teaser", "draft"] as const;
const SUBSECTION_FIELDS = ["title", "content", "order", "photo", "photoAlt", "draft"] as const;
/** Who the revisions of an import's saves name (issue 14). */
const SAVED_BY = "npm run book";

/** Every refusal of refuseUnpublish for a whole folder against the live book. */
function refuseUnpublishing(book: FolderChapter[], live: Awaited<ReturnType<typeof readLiveBook>>): void {
  const bySlug = new Map(live.map((c) => [c.slug, c]));
  for (const chapter of book) {
    const existing = bySlug.get(chapter.slug);
    refuseUnpublish(chapter, existing);
    for (const part of chapter.subsections) refuseUnpublish(part, existing?.subsections.find((s) => s.slug === part.slug));
  }
}

/** An import publishes drafts (`draft: true` left out) but never takes a published item back. */
function refuseUnpublish(item: { draft: boolean; file?: string }, live: { draft: boolean } | undefined): void {
  if (item.draft && live && !live.draft) {
    throw new ContentError(`${item.file ?? "?"}: says draft: true, but it is published; an import never unpublishes (remove the line, or unpublish it in the admin panel).`);
  }
}

interface PhotoToStore {
  name: string;
  file: string;
}

/** Reads `dir`, checks it whole, and applies it (or, with dryRun, only reports what it would do). */
export async function importBook(db: Database, dir: string, { dryRun = false }: { dryRun?: boolean } = {}): Promise<ImportReport> {
  const book = readBookFolder(path.resolve(dir));
  // Checked before any photo is stored, and again in the transaction (the book may change between).
  refuseUnpublishing(book, await readLiveBook(db));
  const photos = await photosToStore(book);
  if (!dryRun) await storePhotos(photos);
  const report = await db.transaction(async (tx) => {
    const txdb = tx as unknown as Database;
    // Chapter reorders in the admin panel wait for the import, and the other way round.
    await lockList(txdb, "chapters");
    return applyBook(txdb, book, dryRun);
  });
  report.photos = photos.map((p) => p.name);
  const changed = [...report.chapters, ...report.subsections].some((item) => item.action !== "unchanged");
  if (changed && !dryRun) await schedulePublish(db);
  return report;
}

async function applyBook(db: Database, book: FolderChapter[], dryRun: boolean): Promise<ImportReport> {
  const live = await readLiveBook(db);
  const liveBySlug = new Map(live.map((c) => [c.slug, c]));
  const report: ImportReport = { dryRun, chapters: [], subsections: [], photos: [], notInFolder: [] };
  const now = new Date();
  for (const chapter of book) {
    const existing = liveBySlug.get(chapter.slug);
    const input = {
      slug: chapter.slug,
      title: chapter.title,
      content: chapter.content,
      readingTime: chapter.readingTime,
      order: chapter.order,
      level: chapter.level,
      teaser: chapter.teaser,
    };
    refuseUnpublish(chapter, existing);
    const save = { now, by: SAVED_BY, draft: chapter.draft };
    let chapterId = existing?.id ?? 0;
    const changed = existing ? CHAPTER_FIELDS.filter((f) => (f === "level" ? levelOf(existing.level) : existing[f]) !== chapter[f]) : [];
    report.chapters.push({ slug: chapter.slug, level: chapter.level, action: !existing ? "created" : changed.length ? "updated" : "unchanged", changed });
    if (!dryRun && !existing) chapterId = (await createChapter(db, input, save)).id;
    if (!dryRun && existing && changed.length) await updateChapter(db, existing.id, input, save);

    const liveParts = new Map((existing?.subsections ?? []).map((s) => [s.slug, s]));
    for (const part of chapter.subsections) {
      const current = liveParts.get(part.slug);
      refuseUnpublish(part, current);
      const partChanged = current ? SUBSECTION_FIELDS.filter((f) => current[f] !== part[f]) : [];
      report.subsections.push({
        chapter: chapter.slug,
        slug: part.slug,
        action: !current ? "created" : partChanged.length ? "updated" : "unchanged",
        changed: partChanged,
      });
      liveParts.delete(part.slug);
      if (dryRun) continue;
      const values = { chapterId, slug: part.slug, title: part.title, content: part.content, photo: part.photo, photoAlt: part.photoAlt, order: part.order };
      if (!current) await createSubsection(db, values, { now, by: SAVED_BY, draft: part.draft });
      else if (partChanged.length) await updateSubsection(db, current.id, values, { now, by: SAVED_BY, draft: part.draft });
    }
    for (const slug of liveParts.keys()) report.notInFolder.push(`${chapter.slug}/${slug}`);
    liveBySlug.delete(chapter.slug);
  }
  for (const chapter of liveBySlug.values()) report.notInFolder.push(chapter.slug);
  return report;
}

/**
 * The photos the folder brings that the photo store lacks. A subsection showing an upload
 * (/uploads/…) needs its file beside it unless the store has it already: else the import stops,
 * naming the file. Other addresses (the site's /images, https) are kept as they are.
 */
async function photosToStore(book: FolderChapter[]): Promise<PhotoToStore[]> {
  const wanted = new Map<string, PhotoToStore>();
  const store = photoStore();
  for (const chapter of book) {
    for (const part of chapter.subsections) {
      if (!part.photo?.startsWith("/uploads/")) continue;
      const name = photoFileName(part.photo);
      const where = part.file ?? chapter.file ?? "";
      if (!name || !PHOTO_NAME.test(name) || `/uploads/${name}` !== part.photo) {
        throw new ContentError(`${where}: photo: "${part.photo}" is not the address of an uploaded photo. Upload it in the admin panel and use the address it gives.`);
      }
      if (wanted.has(name)) continue;
      const file = path.join(path.dirname(where), name);
      if (fs.existsSync(file)) {
        if (!(await import("../uploads/image.ts")).sniffImage(fs.readFileSync(file))) throw new ContentError(`${file}: is not a JPEG, PNG, WebP, GIF or AVIF image.`);
        if (!(await store.get(name))) wanted.set(name, { name, file });
      } else if (!(await store.get(name))) {
        throw new ContentError(`${where}: photo ${part.photo}: there is no file ${name} beside it, and the photo store does not have it.`);
      }
    }
  }
  return [...wanted.values()];
}

/**
 * Stores each photo with the narrower copies the reader page asks for (src/lib/photo-sizes.ts):
 * copies beside it in the folder are taken as they are, missing ones are made again.
 */
async function storePhotos(photos: PhotoToStore[]): Promise<void> {
  if (photos.length === 0) return;
  const store = photoStore();
  for (const { name, file } of photos) {
    const bytes = fs.readFileSync(file);
    const sized = sizedPhoto(`/uploads/${name}`);
    if (sized) {
      const { uploadFiles } = await import("../uploads/image.ts");
      const folder = path.dirname(file);
      const made = await uploadFiles({ kind: sized.ext === "png" ? "png" : "jpeg", bytes, width: sized.width, height: sized.height }, sized.id);
      for (const copy of made.files) {
        const beside = path.join(folder, copy.name);
        await store.put(copy.name, fs.existsSync(beside) && photoIdOf(copy.name) === sized.id ? fs.readFileSync(beside) : copy.bytes);
      }
    } else {
      await store.put(name, bytes);
    }
  }
}
