/** Small data factories for tests: each call makes a distinct row with sensible defaults. */
import type { Database } from "../../src/server/db/client.ts";
import { chapters, subsections } from "../../src/server/db/schema.ts";

let sequence = 0;
const next = () => ++sequence;

export async function createChapter(db: Database, values: Partial<typeof chapters.$inferInsert> = {}) {
  const n = next();
  const [row] = await db
    .insert(chapters)
    .values({ slug: `chapter-${n}`, title: `Chapter ${n}`, content: `Content of chapter ${n}.`, order: n, ...values })
    .returning();
  return row!;
}

export async function createSubsection(
  db: Database,
  chapterId: number,
  values: Partial<typeof subsections.$inferInsert> = {},
) {
  const n = next();
  const [row] = await db
    .insert(subsections)
    .values({ chapterId, slug: `part-${n}`, title: `Part ${n}`, content: `Content of part ${n}.`, order: n, ...values })
    .returning();
  return row!;
}
