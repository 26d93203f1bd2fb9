/**
 * Loading the seed book into the database. It never writes over existing data: a chapter whose
 * slug is already taken (live or deleted) is skipped, and the whole load is one transaction.
 */
import { count, inArray } from "../db/orm.ts";
import type { Database } from "../db/types.ts";
import { chapters, subsections } from "../db/schema.ts";
import { loadBook, type SeedChapter } from "./book.ts";

export interface SeedResult {
  inserted: number;
  skipped: number;
}

/** Inserts the chapters of `book` whose slugs are not in the database yet. */
export async function seed(db: Database, book: SeedChapter[] = loadBook()): Promise<SeedResult> {
  return db.transaction(async (tx) => {
    const taken = new Set(
      (
        await tx
          .select({ slug: chapters.slug })
          .from(chapters)
          .where(inArray(chapters.slug, book.map((c) => c.slug)))
      ).map((row) => row.slug),
    );
    const fresh = book.filter((chapter) => !taken.has(chapter.slug));
    for (const { subsections: parts, ...chapter } of fresh) {
      const [row] = await tx.insert(chapters).values(chapter).returning({ id: chapters.id });
      if (parts.length > 0) {
        await tx.insert(subsections).values(parts.map((part) => ({ ...part, chapterId: row!.id })));
      }
    }
    return { inserted: fresh.length, skipped: book.length - fresh.length };
  });
}

/** Seeds only a database that has never held a chapter (the first start). */
export async function seedIfEmpty(db: Database): Promise<SeedResult | null> {
  const [row] = await db.select({ n: count() }).from(chapters);
  return row!.n === 0 ? seed(db) : null;
}
