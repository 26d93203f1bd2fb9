/**
 * The static search index of the open level, written into the built site at `/pagefind/` with
 * Pagefind's Node API. Chapter pages are not prerendered (docs/decisions/0007), so the records
 * come from the database, through the content snapshot (search-records.ts). The browser loads the
 * index only when the search box is used (src/islands/reader/search/).
 *
 * The index is as fresh as the last site build, and a build follows every change of what it holds
 * (a text edit of the open level included): a chapter or subsection that leaves the open level
 * leaves the index with the build its move triggers. Until that build is live (and on a page
 * opened before it) the browser, at each search, drops results whose chapter the live chapter
 * list no longer shows as Operator, or shows with another text stamp (src/server/search/text-stamps.ts).
 */
import fs from "node:fs";
import path from "node:path";
import * as pagefind from "pagefind";
import type { IndexRecord } from "./search-records.ts";
import { spellForStaticIndex } from "../../lib/accent-folding.ts";

/** Writes the index of `records` into `siteDir/pagefind`. */
export async function writeSearchIndex(records: readonly IndexRecord[], siteDir: string): Promise<void> {
  const { index, errors } = await pagefind.createIndex({ forceLanguage: "en" });
  try {
    if (!index) throw new Error(`Pagefind could not start: ${errors.join("; ")}`);
    for (const record of records) {
      // Pagefind folds accents itself, but for letters Unicode does not decompose (ł, ø, đ): those are
      // spelt so that it folds them too (issue 44: 5), and spelt back in the browser (search/sources.ts).
      const added = await index.addCustomRecord({ ...record, content: spellForStaticIndex(record.content) });
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
