/**
 * `npm run book -- export DIR`: every live chapter and subsection as Markdown files in the layout
 * of content/book (book-folder.ts), each subsection's photo copied beside it. The folder is
 * written whole or not at all: into a temporary folder beside it, renamed into place at the end.
 * Every path written is checked to lie inside that folder, whatever the database holds (issue 21:
 * 5): a photo address that is no plain file name is not copied but listed.
 */
import fs from "node:fs";
import path from "node:path";
import { levelOf } from "../../lib/levels.ts";
import { listAllChapters } from "../admin/chapters.ts";
import { listAdminSubsections } from "../admin/subsections.ts";
import type { Database } from "../db/types.ts";
import { isPlainSitePath } from "../../lib/content-schemas.ts";
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
  /**
   * Photo addresses that name no plain file (`/uploads/x%2F..%2Fevil`: saved before such addresses
   * were refused), each with its subsection: not copied, as they would be written outside the folder.
   */
  refusedPhotos: string[];
}

/** A published item's edit saved as a draft in the admin panel and not published yet (issue 14). */
export interface PendingDraft {
  savedAt: Date | null;
  savedBy: string | null;
}

/** What the database holds beside the folder's fields: its id, pending draft and schedule. */
interface LiveState {
  id: number;
  pendingDraft: PendingDraft | null;
  publishAt: Date | null;
}

export type LiveSubsection = FolderSubsection & LiveState;
export type LiveChapter = Omit<FolderChapter, "subsections"> & LiveState & { subsections: LiveSubsection[] };

const pendingDraftOf = (row: { draft: unknown; draftSavedAt: Date | null; draftSavedBy: string | null }): PendingDraft | null =>
  row.draft === null || row.draft === undefined ? null : { savedAt: row.draftSavedAt, savedBy: row.draftSavedBy };

/** The live book, as the folder holds it, with the database's ids. */
export async function readLiveBook(db: Database): Promise<LiveChapter[]> {
  // Drafts too, marked as drafts; a published item's pending draft stays in the database.
  const chapters = await listAllChapters(db);
  // One after another: inside the import's transaction `db` is a single connection, which runs one
  // statement at a time (pg warns of queries sent to a busy client, and pg 9 refuses them).
  const parts = new Map<number, Awaited<ReturnType<typeof listAdminSubsections>>>();
  for (const c of chapters) parts.set(c.id, await listAdminSubsections(db, c.id));
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
    pendingDraft: pendingDraftOf(c),
    publishAt: c.publishAt,
    subsections: (parts.get(c.id) ?? []).map((s) => ({
      id: s.id,
      slug: s.slug,
      title: s.title,
      order: s.order,
      photo: s.photo,
      photoAlt: s.photoAlt,
      draft: s.status === "draft",
      content: s.content,
      pendingDraft: pendingDraftOf(s),
      publishAt: s.publishAt,
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
  const summary: ExportSummary = { dir: target, chapters: 0, subsections: 0, photos: 0, missingPhotos: [], refusedPhotos: [] };
  /** `parts` joined under `base`, which must stay inside it (else the export stops, writing nothing). */
  const inside = (base: string, what: string, ...parts: string[]) => {
    const file = path.resolve(base, ...parts);
    if (!file.startsWith(base + path.sep)) throw new ExportError(`${what} would be written outside the folder (${path.join(...parts)}); fix it in the admin panel and export again.`);
    return file;
  };
  try {
    for (const chapter of book) {
      const folder = inside(partial, `The chapter "${chapter.slug}"`, chapterFolder(chapter));
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(inside(folder, `The chapter "${chapter.slug}"`, "chapter.md"), chapterDocument(chapter));
      summary.chapters++;
      for (const part of chapter.subsections) {
        const where = `${chapter.slug}/${part.slug}`;
        fs.writeFileSync(inside(folder, `The subsection "${where}"`, subsectionFile(part)), subsectionDocument(part));
        summary.subsections++;
        if (part.photo?.startsWith("/") && !part.photo.startsWith("//") && !isPlainSitePath(part.photo)) {
          summary.refusedPhotos.push(`${part.photo} (${where})`);
          continue;
        }
        const name = photoFileName(part.photo);
        if (!name) continue;
        const file = inside(folder, `The photo of "${where}"`, name);
        if (fs.existsSync(file)) continue;
        const bytes = await photoBytes(part.photo!, name, site);
        if (bytes) {
          fs.writeFileSync(file, bytes);
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
    let file: string;
    try {
      file = path.resolve(publicDir, `.${decodeURIComponent(address.split(/[?#]/)[0]!)}`);
    } catch {
      return null;
    }
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
