/**
 * What the static search index of the open level holds (static-index.ts writes it): one record per
 * live Operator chapter (its own text) and one per subsection, each with the address of the
 * chapter or the subsection's anchor. Nothing of another level is read, so nothing locked can be
 * in the index. The records are part of the content snapshot (snapshot.ts), so any change to them
 * (a text edit included) changes the snapshot's stamp, and a build follows.
 */
import type { Database } from "../db/types.ts";
import { listChaptersWithContent, listSubsectionsOf } from "../repositories/chapters.ts";

export interface IndexRecord {
  url: string;
  content: string;
  language: string;
  meta: { title: string; chapter: string; level: "Operator" };
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
  const chapters = await listChaptersWithContent(db, ["Operator"]);
  const parts = await listSubsectionsOf(db, chapters.map((c) => c.id));
  const meta = (title: string, chapter: string) => ({ title, chapter, level: "Operator" as const });
  return chapters.flatMap((chapter) => [
    { url: `/${chapter.slug}`, content: plainText(`${chapter.title}\n\n${chapter.content}`), language: "en", meta: meta(chapter.title, chapter.title) },
    ...(parts.get(chapter.id) ?? []).map((part) => ({
      url: `/${chapter.slug}#${part.slug}`,
      content: plainText(`${part.title}\n\n${part.content}`),
      language: "en",
      meta: meta(part.title, chapter.title),
    })),
  ]);
}
