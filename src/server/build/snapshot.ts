/**
 * The content snapshot a static build reads: the chapter list as every page's navigator shows it
 * (id, slug, title, level and order), and the open level's search records (its text: never a
 * locked level's). Chapter pages themselves are not prerendered from it: they are rendered into
 * the Astro-built chapter shell on request and cached at the CDN (docs/decisions/0007), so an
 * edit shows at once without a build. A build follows when the list or the open level's text
 * changes (the search index holds that text), which the snapshot's stamp tells; an edit of a
 * locked level's text needs none.
 * The build reads a file rather than the database, so a running server (which owns the embedded
 * database) can rebuild the site, and a build never needs database credentials of its own.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Database } from "../db/types.ts";
import { listChapters, readContentVersion, type ChapterSummary } from "../repositories/chapters.ts";
import { operatorTextStamps } from "../search/text-stamps.ts";
import { operatorRecords, type IndexRecord } from "./search-records.ts";

export type SnapshotChapter = Pick<ChapterSummary, "id" | "slug" | "title" | "level" | "order">;

export interface ContentSnapshot {
  chapters: SnapshotChapter[];
  /** What the static search index holds (search-records.ts): the build writes the index from these. */
  searchRecords: IndexRecord[];
}

export const SNAPSHOT_ENV = "CONTENT_SNAPSHOT";

export async function takeSnapshot(db: Database): Promise<ContentSnapshot> {
  const chapters = await listChapters(db);
  return {
    chapters: chapters.map(({ id, slug, title, level, order }) => ({ id, slug, title, level, order })),
    searchRecords: await operatorRecords(db),
  };
}

/** A short fingerprint of a snapshot: equal stamps mean the static pages would come out the same. */
export function snapshotStamp(snapshot: ContentSnapshot): string {
  return createHash("sha256").update(JSON.stringify(snapshot)).digest("base64url").slice(0, 22);
}

/**
 * What a site built from a snapshot holds of the content, as the publish state records it: the
 * snapshot's stamp, and the text stamps of the open chapters its search files index (a chapter's
 * stamp there that is no longer current is text withdrawn or changed since: publish/state.ts).
 */
export interface SiteContent {
  stamp: string;
  textStamps: string[];
}

/**
 * A site's content stamp: its chapter list and the text stamps of the open chapters it indexes
 * (each the fingerprint of a chapter's searchable text: src/server/search/text-stamps.ts), which
 * is what changes whenever the index's records would.
 */
function contentStamp(chapters: readonly SnapshotChapter[], textStamps: readonly string[]): string {
  return createHash("sha256").update(JSON.stringify({ chapters, textStamps })).digest("base64url").slice(0, 22);
}

export function siteContentOf(snapshot: ContentSnapshot): SiteContent {
  const textStamps = [...new Set(snapshot.searchRecords.map((record) => record.meta.stamp))].sort();
  return { stamp: contentStamp(snapshot.chapters, textStamps), textStamps };
}

/**
 * What a site built now would hold of the content, as `siteContentOf` tells it of a snapshot, but
 * without rendering the open level's text into records: the publish status and every save ask for
 * it (with 1,000 chapters x 10 subsections, a snapshot took 450 ms of a server's CPU; this 110 ms,
 * most of it PostgreSQL's md5s).
 */
export async function currentContent(db: Database): Promise<SiteContent> {
  // Read after the version: what is kept under a version holds that version's content or a newer
  // one, never an older (a write that commits in between is read, and moves the version on).
  const version = await readContentVersion(db);
  const kept = lastContent.get(db);
  if (kept?.version === version) return kept.content;
  const chapters = (await listChapters(db)).map(({ id, slug, title, level, order }) => ({ id, slug, title, level, order }));
  const textStamps = [...new Set((await operatorTextStamps(db)).values())].sort();
  const content = { stamp: contentStamp(chapters, textStamps), textStamps };
  lastContent.set(db, { version, content });
  return content;
}

/**
 * The content last read on each database, under the content version it was read at: the admin
 * panel asks for the publish status on opening and while a publish runs, and hashing every open
 * text took 62-78 ms a read on PGlite with 1,000 chapters x 10 subsections (issue 45), 4-9 ms kept.
 */
const lastContent = new WeakMap<Database, { version: number; content: SiteContent }>();

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
