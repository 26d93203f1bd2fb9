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
 *
 * Nothing is lost or leaked on the way (issue 21: 4): a symbolic link in the folder stops the
 * import (it could point at any file of the server); every photo is cleaned as an upload is
 * (src/server/uploads/image.ts: re-encoded without its camera data and GPS position, its narrower
 * copies made again from it, never taken from the folder); and an item with a pending draft saved
 * in the admin panel is not changed: the import stops, naming it, rather than drop the draft.
 */
import fs from "node:fs";
import path from "node:path";
import { sizedPhoto } from "../../lib/photo-sizes.ts";
import { levelOf } from "../../lib/levels.ts";
import { HttpError } from "../http/errors.ts";
import { EXTENSIONS } from "../uploads/image-kinds.ts";
import { createChapter, updateChapter } from "../admin/chapters.ts";
import { createSubsection, updateSubsection } from "../admin/subsections.ts";
import { lockList } from "../db/ordering.ts";
import type { Database } from "../db/types.ts";
import { schedulePublish } from "../publish/publisher.ts";
import { PHOTO_NAME, photoStore } from "../uploads/photo-store.ts";
import { ContentError } from "./book.ts";
import { readLiveBook, type LiveChapter, type LiveSubsection, type PendingDraft } from "./book-export.ts";
import { photoFileName, readBookFolder, readFolderFile, type FolderChapter, type FolderSubsection } from "./book-folder.ts";

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

/** The fields of a live chapter the folder's version changes. */
const chapterChanges = (existing: LiveChapter, chapter: FolderChapter) =>
  CHAPTER_FIELDS.filter((f) => (f === "level" ? levelOf(existing.level) : existing[f]) !== chapter[f]);

/** The fields of a live subsection the folder's version changes. */
const subsectionChanges = (current: LiveSubsection, part: FolderSubsection) => SUBSECTION_FIELDS.filter((f) => current[f] !== part[f]);

/** Every refusal of refuseUnpublish and refuseDroppingDraft for a whole folder against the live book. */
function refuseLosses(book: FolderChapter[], live: LiveChapter[]): void {
  const bySlug = new Map(live.map((c) => [c.slug, c]));
  for (const chapter of book) {
    const existing = bySlug.get(chapter.slug);
    refuseUnpublish(chapter, existing);
    if (existing) refuseDroppingDraft(chapter, existing, chapterChanges(existing, chapter));
    for (const part of chapter.subsections) {
      const current = existing?.subsections.find((s) => s.slug === part.slug);
      refuseUnpublish(part, current);
      if (current) refuseDroppingDraft(part, current, subsectionChanges(current, part));
    }
  }
}

/** An import publishes drafts (`draft: true` left out) but never takes a published item back. */
function refuseUnpublish(item: { draft: boolean; file?: string }, live: { draft: boolean } | undefined): void {
  if (item.draft && live && !live.draft) {
    throw new ContentError(`${item.file ?? "?"}: says draft: true, but it is published; an import never unpublishes (remove the line, or unpublish it in the admin panel).`);
  }
}

/**
 * Saving over a published item drops its pending draft (the admin panel's rule for a save), so an
 * import that would change an item holding one stops instead, naming it: the draft is someone's
 * unpublished work. An item the import leaves unchanged keeps its draft.
 */
function refuseDroppingDraft(item: { file?: string; title: string }, live: { pendingDraft: PendingDraft | null }, changed: readonly string[]): void {
  const pending = live.pendingDraft;
  if (!pending || changed.length === 0) return;
  const when = pending.savedAt ? ` on ${pending.savedAt.toISOString().slice(0, 16).replace("T", " ")} UTC` : "";
  const who = pending.savedBy ? ` by ${pending.savedBy}` : "";
  throw new ContentError(
    `${item.file ?? "?"}: "${item.title}" has a draft saved in the admin panel${who}${when} and not yet published; importing would replace it. ` +
      "Publish or discard that draft in the admin panel (or copy its text into this file and discard it), then import again.",
  );
}

interface PhotoToStore {
  name: string;
  file: string;
}

/** Reads `dir`, checks it whole, and applies it (or, with dryRun, only reports what it would do). */
export async function importBook(db: Database, dir: string, { dryRun = false }: { dryRun?: boolean } = {}): Promise<ImportReport> {
  const book = readBookFolder(path.resolve(dir));
  // Checked before any photo is stored, and again in the transaction (the book may change between).
  refuseLosses(book, await readLiveBook(db));
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
    const changed = existing ? chapterChanges(existing, chapter) : [];
    if (existing) refuseDroppingDraft(chapter, existing, changed);
    // A draft keeps the time it is scheduled to be published at.
    const save = { now, by: SAVED_BY, draft: chapter.draft, publishAt: chapter.draft ? (existing?.publishAt ?? null) : null };
    let chapterId = existing?.id ?? 0;
    report.chapters.push({ slug: chapter.slug, level: chapter.level, action: !existing ? "created" : changed.length ? "updated" : "unchanged", changed });
    if (!dryRun && !existing) chapterId = (await createChapter(db, input, save)).id;
    if (!dryRun && existing && changed.length) await updateChapter(db, existing.id, input, save);

    const liveParts = new Map((existing?.subsections ?? []).map((s) => [s.slug, s]));
    for (const part of chapter.subsections) {
      const current = liveParts.get(part.slug);
      refuseUnpublish(part, current);
      const partChanged = current ? subsectionChanges(current, part) : [];
      if (current) refuseDroppingDraft(part, current, partChanged);
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
      else if (partChanged.length) {
        await updateSubsection(db, current.id, values, { now, by: SAVED_BY, draft: part.draft, publishAt: part.draft ? current.publishAt : null });
      }
    }
    for (const slug of liveParts.keys()) report.notInFolder.push(`${chapter.slug}/${slug}`);
    liveBySlug.delete(chapter.slug);
  }
  for (const chapter of liveBySlug.values()) report.notInFolder.push(chapter.slug);
  return report;
}

/**
 * The photos the folder brings that the photo store lacks, each read and cleaned once to check it.
 * A subsection showing an upload (/uploads/…) needs its file beside it unless the store has it
 * already: else the import stops, naming the file. Other addresses (the site's /images, https)
 * are kept as they are.
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
      if (wanted.has(name) || (await store.get(name))) continue;
      const file = path.join(path.dirname(where), name);
      if (!fs.lstatSync(file, { throwIfNoEntry: false })) {
        throw new ContentError(`${where}: photo ${part.photo}: there is no file ${name} beside it, and the photo store does not have it.`);
      }
      await cleanedPhoto(name, file);
      wanted.set(name, { name, file });
    }
  }
  return [...wanted.values()];
}

/**
 * A photo file of the folder cleaned as an upload is (src/server/uploads/image.ts): judged by its
 * content, capped in pixels, re-encoded upright without any metadata (camera, GPS position,
 * times). It must be what its name says: an upload's size and format, as the store names it.
 */
async function cleanedPhoto(name: string, file: string) {
  const { cleanImage, sniffImage } = await import("../uploads/image.ts");
  const bytes = readFolderFile(file);
  if (!sniffImage(bytes)) throw new ContentError(`${file}: is not a JPEG, PNG, WebP, GIF or AVIF image.`);
  let image: Awaited<ReturnType<typeof cleanImage>>;
  try {
    image = await cleanImage(bytes);
  } catch (error) {
    if (error instanceof HttpError) throw new ContentError(`${file}: ${error.message}`);
    throw error;
  }
  const sized = sizedPhoto(`/uploads/${name}`);
  const says = sized ? `${sized.width} × ${sized.height} pixels` : `a ${name.slice(name.lastIndexOf(".") + 1).toUpperCase()} image`;
  const is = `${image.width} × ${image.height} pixels, ${image.kind.toUpperCase()}`;
  const fits = sized
    ? sized.width === image.width && sized.height === image.height && image.kind !== "gif"
    : name.endsWith(`.${EXTENSIONS[image.kind]}`);
  if (!fits) {
    throw new ContentError(`${file}: its name says ${says}, but the image is ${is} (once turned upright). Upload it in the admin panel and use the address it gives.`);
  }
  return image;
}

/**
 * Stores each photo cleaned (as cleanedPhoto), with the narrower copies the reader page asks for
 * (src/lib/photo-sizes.ts) made from it as an upload's are: copies beside it in the folder are
 * never taken, so no file reaches the site without being re-encoded.
 */
async function storePhotos(photos: PhotoToStore[]): Promise<void> {
  if (photos.length === 0) return;
  const store = photoStore();
  const { uploadFiles } = await import("../uploads/image.ts");
  for (const { name, file } of photos) {
    const image = await cleanedPhoto(name, file);
    const sized = sizedPhoto(`/uploads/${name}`);
    if (!sized) {
      await store.put(name, image.bytes);
      continue;
    }
    const made = await uploadFiles(image, sized.id);
    if (made.url !== `/uploads/${name}`) {
      throw new ContentError(`${file}: its name says a ${sized.ext.toUpperCase()} photo, but cleaned it is stored as ${made.url.slice(made.url.lastIndexOf(".") + 1).toUpperCase()} (a photo with transparency is kept as PNG). Upload it in the admin panel and use the address it gives.`);
    }
    // The copies first, the original last, as an upload: the address is complete once it exists.
    for (const copy of made.files.slice(1)) await store.put(copy.name, copy.bytes);
    await store.put(made.files[0]!.name, made.files[0]!.bytes);
  }
}
