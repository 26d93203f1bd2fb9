/**
 * A short fingerprint of each live Operator chapter's searchable text: its slug, title and text,
 * and those of its published subsections. The static search index is as old as the last site
 * build; each of its records carries the stamp of its chapter as built (search-records.ts), and
 * the live chapter list (`GET /api/chapters`) carries each Operator chapter's stamp now. The search
 * box shows a static result only while the two agree (src/islands/reader/search/merge-results.ts):
 * a chapter moved out of the open level, deleted, or edited (a subsection added, changed, moved
 * or deleted included) has no result from the static index until the build that holds its new
 * text is live. Only a fingerprint is sent, never a word of the text.
 *
 * One SQL expression computes it for the build and for the list alike, so the two can be compared.
 */
import { sql } from "../db/orm.ts";
import type { Database } from "../db/types.ts";
import { chapters, subsections } from "../db/schema.ts";

/** Hex digits kept of the MD5: 48 bits, plenty to tell one version of a chapter from another. */
const STAMP_LENGTH = 12;

/** The stamp of every live Operator chapter, by chapter id. */
export async function operatorTextStamps(db: Database): Promise<Map<number, string>> {
  // Fields joined with the unit separator, subsections (by id: a reorder changes no words) with
  // the record separator; concat_ws skips the NULL of a chapter without subsections.
  const result = (await db.execute(sql`
    SELECT c.id, left(md5(concat_ws(chr(31), c.slug, c.title, c.content,
      (SELECT string_agg(concat_ws(chr(31), s.slug, s.title, s.content), chr(30) ORDER BY s.id)
         FROM ${subsections} s WHERE s.chapter_id = c.id AND s.deleted_at IS NULL AND s.status = 'published'))), ${sql.raw(String(STAMP_LENGTH))}) AS stamp
    FROM ${chapters} c
    WHERE c.deleted_at IS NULL AND c.status = 'published' AND coalesce(c.level, 'Operator') = 'Operator'`)) as unknown as {
    rows: Array<{ id: number; stamp: string }>;
  };
  return new Map(result.rows.map((row) => [Number(row.id), row.stamp]));
}
