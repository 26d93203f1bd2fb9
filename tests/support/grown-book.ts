/**
 * A book grown past the seed (issue 45): Operator chapters added after the seed's, each with a
 * title like the seed's ("The Anatomy of a Reaction", "Where Attention Goes": a few words of
 * plain English, different from chapter to chapter), so that what grows with the chapter list
 * grows as a real operator's book would make it grow, not as a list of "Chapter 1", "Chapter 2"
 * that compresses to almost nothing.
 */
import type { Database } from "../../src/server/db/types.ts";
import { chapters, subsections } from "../../src/server/db/schema.ts";
import { max, count } from "../../src/server/db/orm.ts";
import { slugify } from "../../src/lib/slug.ts";

const OPENINGS = ["The", "A", "Beyond the", "Inside the", "After the", "Before the", "Against the", "Toward the"];
const QUALITIES = [
  "Quiet", "Hidden", "Second", "Borrowed", "Unfinished", "Honest", "Narrow", "Patient", "Restless", "Inherited",
  "Deliberate", "Silent", "Broken", "Steady", "Forgotten", "Rehearsed", "Measured", "Unspoken", "Crowded", "Open",
];
const THINGS = [
  "Reaction", "Narrator", "Signal", "Habit", "Ledger", "Boundary", "Question", "Promise", "Threshold", "Pattern",
  "Decision", "Rehearsal", "Inventory", "Script", "Compass", "Mirror", "Contract", "Margin", "Pause", "Draft",
  "Trigger", "Story", "Witness", "Weight", "Map",
];
const ENDINGS = ["", "", "", " at Work", " in Motion", " Under Load", " and Its Cost", " We Keep", " Nobody Sees", " of Attention"];

/** The `n`th generated title (n from 0): the same for the same n, different for the first thousands. */
export function grownTitle(n: number): string {
  const pick = <T>(list: readonly T[], k: number) => list[k % list.length]!;
  return `${pick(OPENINGS, n * 7 + 3)} ${pick(QUALITIES, n * 13 + 5)} ${pick(THINGS, n)}${pick(ENDINGS, n * 3 + Math.floor(n / 25))}`;
}

const PARAGRAPH =
  "Notice what happens in the half-second before you answer. Write down the first sentence your mind offers, and the second one, the one you would rather say.";

/**
 * Adds Operator chapters (each with `partsEach` subsections) until the book holds `total`
 * chapters, every level counted; answers how many it added.
 */
export async function growBook(db: Database, total: number, partsEach = 2): Promise<number> {
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(chapters);
  const [{ top } = { top: 0 }] = await db.select({ top: max(chapters.order) }).from(chapters);
  const missing = Math.max(0, total - n);
  for (let start = 0; start < missing; start += 100) {
    const batch = Array.from({ length: Math.min(100, missing - start) }, (_, i) => {
      const k = start + i;
      const title = grownTitle(k);
      return { slug: `${slugify(title)}-${k + 1}`, title, content: `## ${title}\n\n${PARAGRAPH}`, order: (top ?? 0) + k + 1, level: "Operator" };
    });
    const rows = await db.insert(chapters).values(batch).returning({ id: chapters.id });
    if (partsEach > 0) {
      await db
        .insert(subsections)
        .values(rows.flatMap((row) => Array.from({ length: partsEach }, (_, p) => ({ chapterId: row.id, slug: `part-${p + 1}`, title: `Part ${p + 1}`, content: PARAGRAPH, order: p + 1 }))));
    }
  }
  return missing;
}
