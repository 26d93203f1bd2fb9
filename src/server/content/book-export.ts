/**
 * `npm run book -- export DIR`: every live chapter and subsection as Markdown files in the layout
 * of content/book (book-folder.ts), each subsection's photo copied beside it. The folder is
 * written whole or not at all: into a temporary folder beside it, renamed into place at the end.
 */
import fs from "node:fs";
import path from "node:path";
import { levelOf } from "../../lib/levels.ts";
import { listAllChapters } from "../admin/chapters.ts";
import { listAdminSubsections } from "../admin/subsections.ts";
import type { Database } from "../db/types.ts";
import { PHOTO_NAME, photoStore } from "../uploads/photo-store.ts";
import { chapterDocument, chapterFolder, photoFileName, subsectionDocument, subsectionFile, type FolderChapter, type FolderSubsection } from "./book-folder.ts";

/** The site's public folder: photos with addresses such as /images/… are served from it. */
export const publicDir = path.resolve(import.meta.dirname, "../../../public");

export interface ExportOptions {
  /** A site to download photos from when they are not stored here (the Netlify site's address). */
  site?: string;
}

export interface ExportSummary {
  dir: string;
  chapters: number;
  subsections: number;
  photos: number;
  /** Photos that could not be found, each with the subsection that shows it. */
  missingPhotos: string[];
}

export type LiveSubsection = FolderSubsection & { id: number };
export type LiveChapter = Omit<FolderChapter, "subsections"> & { id: number; subsections: LiveSubsection[] };

/** The live book, as the folder holds it, with the database's ids. */
export async function readLiveBook(db: Database): Promise<LiveChapter[]> {
  // Drafts too, marked as drafts; a published item's pending draft stays in the database.
  const chapters = await listAllChapters(db);
  const parts = new Map(await Promise.all(chapters.map(async (c) => [c.id, await listAdminSubsections(db, c.id)] as const)));
  return chapters.map((c) => ({
    id: c.id,
    slug: c.slug,
    title: c.title,
    level: levelOf(c.level),
    order: c.order,
    readingTime: c.readingTime,
    teaser: c.teaser,
    draft: c.status === "draft",
    content: c.content,
    subsections: (parts.get(c.id) ?? []).map((s) => ({
      id: s.id,
      slug: s.slug,
      title: s.title,
      order: s.order,
      photo: s.photo,
      photoAlt: s.photoAlt,
      draft: s.status === "draft",
      content: s.content,
    })),
  }));
}

export class ExportError extends Error {
  override name = "ExportError";
}

export async function exportBook(db: Database, dir: string, { site }: ExportOptions = {}): Promise<ExportSummary> {
  const target = path.resolve(dir);
  if (fs.existsSync(target) && (!fs.statSync(target).isDirectory() || fs.readdirSync(target).length > 0)) {
    throw new ExportError(`${target} is not an empty folder. Export into a new or empty folder (an old file left there would be imported again).`);
  }
  const book = await readLiveBook(db);
  const partial = `${target}.partial-${process.pid}`;
  fs.rmSync(partial, { recursive: true, force: true });
  const summary: ExportSummary = { dir: target, chapters: 0, subsections: 0, photos: 0, missingPhotos: [] };
  try {
    for (const chapter of book) {
      const folder = path.join(partial, chapterFolder(chapter));
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(path.join(folder, "chapter.md"), chapterDocument(chapter));
      summary.chapters++;
      for (const part of chapter.subsections) {
        fs.writeFileSync(path.join(folder, subsectionFile(part)), subsectionDocument(part));
        summary.subsections++;
        const name = photoFileName(part.photo);
        if (!name || fs.existsSync(path.join(folder, name))) continue;
        const bytes = await photoBytes(part.photo!, name, site);
        if (bytes) {
          fs.writeFileSync(path.join(folder, name), bytes);
          summary.photos++;
        } else {
          summary.missingPhotos.push(`${part.photo} (${chapter.slug}/${part.slug})`);
        }
      }
    }
    fs.mkdirSync(path.dirname(target), { recursive: true });
    if (fs.existsSync(target)) fs.rmdirSync(target);
    fs.renameSync(partial, target);
  } finally {
    fs.rmSync(partial, { recursive: true, force: true });
  }
  return summary;
}

/** A photo's bytes: from the photo store (uploads) or the public folder, else from `site`. */
async function photoBytes(address: string, name: string, site: string | undefined): Promise<Uint8Array | null> {
  if (address.startsWith("/uploads/") && PHOTO_NAME.test(name)) {
    const stored = await photoStore().get(name);
    if (stored) return stored;
  } else {
    const file = path.resolve(publicDir, `.${decodeURIComponent(address.split(/[?#]/)[0]!)}`);
    if (file.startsWith(publicDir + path.sep) && fs.existsSync(file) && fs.statSync(file).isFile()) return fs.readFileSync(file);
  }
  if (!site) return null;
  try {
    const response = await fetch(new URL(address, site), { signal: AbortSignal.timeout(30_000) });
    return response.ok ? new Uint8Array(await response.arrayBuffer()) : null;
  } catch {
    return null;
  }
}
