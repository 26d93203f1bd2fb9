/**
 * What the static search index of the open level holds (static-index.ts writes it): one record per
 * live Operator chapter (its own text) and one per subsection, each with the address of the
 * chapter or the subsection's anchor. Nothing of another level is read, so nothing locked can be
 * in the index. The records are part of the content snapshot (snapshot.ts), so any change to them
 * (a text edit included) changes the snapshot's stamp, and a build follows. Each record carries
 * its chapter's text stamp (src/server/search/text-stamps.ts), which the browser compares with the
 * live chapter list's before it shows the record.
 */
import type { Database } from "../db/types.ts";
import { listChaptersWithContent, listSubsectionsOf } from "../repositories/chapters.ts";
import { operatorTextStamps } from "../search/text-stamps.ts";

export interface IndexRecord {
  url: string;
  content: string;
  /** `stamp`: the chapter's text stamp when the index was built. */
  meta: { title: string; chapter: string; level: "Operator"; stamp: string };
}

/** Light markup as a reader sees it: link targets and heading, quote, list and bold marks dropped. */
export function plainText(markup: string): string {
  return markup
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/^\s*(#{1,6}|>|-)\s+/gm, "")
    .replace(/[*_]{1,3}/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** The records of every live Operator chapter and subsection, in reading order. */
export async function operatorRecords(db: Database): Promise<IndexRecord[]> {
  // The stamps first: should the text change while these are read, a record then carries an
  // older stamp than its text, which the live list's never matches (its result is dropped until
  // the build that change starts), never a newer one, which would let withdrawn words show.
  const stamps = await operatorTextStamps(db);
  const chapters = await listChaptersWithContent(db, ["Operator"]);
  const parts = await listSubsectionsOf(db, chapters.map((c) => c.id));
  return chapters.flatMap((chapter) => {
    const meta = (title: string) => ({ title, chapter: chapter.title, level: "Operator" as const, stamp: stamps.get(chapter.id) ?? "" });
    return [
      { url: `/${chapter.slug}`, content: plainText(`${chapter.title}\n\n${chapter.content}`), meta: meta(chapter.title) },
      ...(parts.get(chapter.id) ?? []).map((part) => ({
        url: `/${chapter.slug}#${part.slug}`,
        content: plainText(`${part.title}\n\n${part.content}`),
        meta: meta(part.title),
      })),
    ];
  });
}
