/**
 * The content snapshot a static build reads: the chapter list (no content) and the full Operator
 * chapters. Locked-level content is never in it, so it can never reach `dist/`.
 * The build reads a file rather than the database, so a running server (which owns the embedded
 * database) can rebuild the site, and a build never needs database credentials of its own.
 */
import fs from "node:fs";
import path from "node:path";
import type { BodySubsection, BookChapter } from "../../lib/chapter-body.ts";
import type { Database } from "../db/client.ts";
import {
  listChapters,
  listChaptersWithContent,
  listSubsectionsOf,
  type ChapterSummary,
} from "../repositories/chapters.ts";

/** Operator chapters in the snapshot carry their content and subsections, as reader pages show them. */
export type SnapshotSubsection = BodySubsection;
export type SnapshotChapter = BookChapter;

export interface ContentSnapshot {
  chapters: ChapterSummary[];
  operator: SnapshotChapter[];
}

export const SNAPSHOT_ENV = "CONTENT_SNAPSHOT";

export async function takeSnapshot(db: Database): Promise<ContentSnapshot> {
  const [chapters, operatorChapters] = await Promise.all([
    listChapters(db),
    listChaptersWithContent(db, ["Operator"]),
  ]);
  const parts = await listSubsectionsOf(
    db,
    operatorChapters.map((c) => c.id),
  );
  return {
    chapters,
    operator: operatorChapters.map((c) => ({
      id: c.id,
      slug: c.slug,
      title: c.title,
      level: c.level,
      order: c.order,
      readingTime: c.readingTime,
      content: c.content,
      subsections: (parts.get(c.id) ?? []).map((s) => ({
        id: s.id,
        slug: s.slug,
        title: s.title,
        content: s.content,
        photo: s.photo,
        photoAlt: s.photoAlt,
        order: s.order,
      })),
    })),
  };
}

export function writeSnapshot(file: string, snapshot: ContentSnapshot): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(snapshot));
}

/** For pages at build time: the snapshot the build was started with. */
export function readSnapshot(): ContentSnapshot {
  const file = process.env[SNAPSHOT_ENV];
  if (!file || !fs.existsSync(file)) {
    throw new Error(
      "No content snapshot: build the site with `npm run build` (or `npm start`), which take one from the database.",
    );
  }
  return JSON.parse(fs.readFileSync(file, "utf8")) as ContentSnapshot;
}
