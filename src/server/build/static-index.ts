/**
 * The static search index of the open level, written into the built site at `/pagefind/` with
 * Pagefind's Node API. Chapter pages are not prerendered (docs/decisions/0007), so the records
 * come from the database: one per Operator chapter (its own text) and one per subsection, each
 * with the address of the chapter or the subsection's anchor. Nothing of another level is read,
 * so nothing locked can be in the index. The browser loads it only when the search box is used
 * (src/islands/reader/search/).
 *
 * The index is as fresh as the last site build. A build follows every change of what it holds
 * apart from text edits (the content snapshot records the Operator subsections: snapshot.ts), so a
 * chapter or subsection that leaves the open level leaves the index with the build its move
 * triggers; until that build is live the browser drops results that the live chapter list no
 * longer shows as Operator.
 */
import fs from "node:fs";
import path from "node:path";
import * as pagefind from "pagefind";
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

/** Writes the index of `records` into `siteDir/pagefind`. */
export async function writeSearchIndex(records: readonly IndexRecord[], siteDir: string): Promise<void> {
  const { index, errors } = await pagefind.createIndex({ forceLanguage: "en" });
  try {
    if (!index) throw new Error(`Pagefind could not start: ${errors.join("; ")}`);
    for (const record of records) {
      const added = await index.addCustomRecord(record);
      if (added.errors.length) throw new Error(`Pagefind refused ${record.url}: ${added.errors.join("; ")}`);
    }
    const out = path.join(siteDir, "pagefind");
    const written = await index.writeFiles({ outputPath: out });
    if (written.errors.length) throw new Error(`Pagefind could not write the index: ${written.errors.join("; ")}`);
    // Pagefind's ready-made interfaces: the search box is the navigator's own.
    for (const name of fs.readdirSync(out)) {
      if (/^pagefind-(ui|modular-ui|component-ui|highlight)\./.test(name)) fs.rmSync(path.join(out, name));
    }
  } finally {
    await pagefind.close();
  }
}
