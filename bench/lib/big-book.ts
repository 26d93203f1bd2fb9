/**
 * A big book for the benches (issue 45): the seed book (its 9 chapters in three levels) grown with
 * Operator chapters to `chapters` in all, each with `parts` subsections, written as an operator's
 * book would grow:
 *   - titles of a few plain English words, different from chapter to chapter (a list of
 *     "Chapter 1", "Chapter 2" would compress to almost nothing and flatter the list's bytes);
 *   - text of the seed's own length (about 1,700 characters a chapter, 1,500 a subsection), its
 *     sentences drawn from the seed book's, with a term of its own in each subsection, so that the
 *     open level's search index grows with the book's vocabulary as a real one would (tens of
 *     thousands of distinct words over 1,000 chapters), not only with its length.
 * Everything is deterministic: the same arguments make the same book.
 */
import { slugify } from "../../src/lib/slug.ts";
import { loadBook } from "../../src/server/content/book.ts";
import { seed } from "../../src/server/content/seed.ts";
import { openDatabase, type DatabaseHandle } from "../../src/server/db/client.ts";
import { count, max } from "../../src/server/db/orm.ts";
import { adminAccounts, chapters, subsections } from "../../src/server/db/schema.ts";
import type { Database } from "../../src/server/db/types.ts";
import { hashPassword } from "../../src/server/auth/password.ts";

/** The admin account the benches sign in with. */
export const BENCH_ADMIN = { email: "bench@example.com", password: "bench password, long enough" };

const OPENINGS = ["The", "A", "Beyond the", "Inside the", "After the", "Before the", "Against the", "Toward the", "On the", "Keeping the"];
const QUALITIES = [
  "Quiet", "Hidden", "Second", "Borrowed", "Unfinished", "Honest", "Narrow", "Patient", "Restless", "Inherited",
  "Deliberate", "Silent", "Broken", "Steady", "Forgotten", "Rehearsed", "Measured", "Unspoken", "Crowded", "Open",
  "Slow", "Familiar", "Early",
];
const THINGS = [
  "Reaction", "Narrator", "Signal", "Habit", "Ledger", "Boundary", "Question", "Promise", "Threshold", "Pattern",
  "Decision", "Rehearsal", "Inventory", "Script", "Compass", "Mirror", "Contract", "Margin", "Pause", "Draft",
  "Trigger", "Story", "Witness", "Weight", "Map", "Appetite", "Doorway",
];
const ENDINGS = ["", "", "", " at Work", " in Motion", " Under Load", " and Its Cost", " We Keep", " Nobody Sees", " of Attention", " in Practice"];
const SYLLABLES = ["ka", "lo", "ven", "mir", "tas", "pel", "dor", "sun", "ri", "bam", "qua", "nel", "ost", "fi", "gra", "tem", "zu", "hal", "cor", "wy"];

/** The `n`th generated chapter's title (n from 0): the same for the same n, different over the first thousands. */
export function bigBookTitle(n: number): string {
  const pick = <T>(list: readonly T[], k: number) => list[k % list.length]!;
  return `${pick(OPENINGS, n * 7 + 3)} ${pick(QUALITIES, n * 13 + 5)} ${pick(THINGS, n)}${pick(ENDINGS, n * 3 + Math.floor(n / 27))}`;
}

/** A made-up word of three syllables, one per `n`: a term only its subsection uses. */
function term(n: number): string {
  return [n % 20, Math.floor(n / 20) % 20, Math.floor(n / 400) % 20].map((k, i) => SYLLABLES[(k + i * 7) % 20]).join("");
}

/** The seed book's sentences (every level's text, headings and lists left out). */
function sentencePool(): string[] {
  const text = loadBook()
    .flatMap((chapter) => [chapter.content, ...chapter.subsections.map((part) => part.content)])
    .join("\n");
  return text
    .split("\n")
    .filter((line) => line.trim() && !/^(#|-|\*|\d+\.|>|!\[)/.test(line.trim()))
    .flatMap((line) => line.match(/[^.!?]+[.!?]+/g) ?? [])
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 30);
}

/** Text of about `length` characters: paragraphs of the pool's sentences from `start`, with `word` in it. */
function textOf(pool: string[], start: number, length: number, word: string, heading?: string): string {
  const paragraphs: string[] = heading ? [`### ${heading}`] : [];
  let size = 0;
  let paragraph: string[] = [];
  for (let i = 0; size < length; i++) {
    const sentence = pool[(start + i * 7) % pool.length]!;
    paragraph.push(i === 2 ? `${sentence.slice(0, -1)}, which is what ${word} names.` : sentence);
    size += sentence.length + 1;
    if (paragraph.length === 4) {
      paragraphs.push(paragraph.join(" "));
      paragraph = [];
    }
  }
  if (paragraph.length) paragraphs.push(paragraph.join(" "));
  return paragraphs.join("\n\n");
}

/**
 * Adds Operator chapters (each with `parts` subsections) after the last one until the book holds
 * `total` chapters, every level counted; answers how many it added.
 */
export async function growBook(db: Database, total: number, parts = 10): Promise<number> {
  const pool = sentencePool();
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(chapters);
  const [{ top } = { top: 0 }] = await db.select({ top: max(chapters.order) }).from(chapters);
  const missing = Math.max(0, total - n);
  const batchSize = 50;
  for (let start = 0; start < missing; start += batchSize) {
    const batch = Array.from({ length: Math.min(batchSize, missing - start) }, (_, i) => {
      const k = start + i;
      const title = bigBookTitle(k);
      return { slug: `${slugify(title)}-${k + 1}`, title, content: textOf(pool, k * 31, 1700, term(k * 11)), readingTime: 5 + (k % 9), order: (top ?? 0) + k + 1, level: "Operator" };
    });
    const rows = await db.insert(chapters).values(batch).returning({ id: chapters.id });
    if (parts > 0) {
      await db.insert(subsections).values(
        rows.flatMap((row, i) =>
          Array.from({ length: parts }, (_, p) => {
            const k = (start + i) * parts + p;
            const title = `${pickTitle(k)}`;
            return { chapterId: row.id, slug: `${slugify(title)}-${p + 1}`, title, content: textOf(pool, k * 17 + 5, 1500, term(k + 1), "What to notice"), order: p + 1 };
          }),
        ),
      );
    }
  }
  return missing;
}

/** A subsection's title: a few words, like the seed's ("The Half-Second Gap"). */
function pickTitle(k: number): string {
  return bigBookTitle(k * 3 + 1).replace(/^(The|A) /, "");
}

/**
 * Makes a book's database in `dataDir` (embedded PGlite, on disk for `npm start` to open):
 * migrated, the seed book loaded, grown to `chapters` chapters of `parts` subsections (none grown
 * when `chapters` is at most the seed's), and the bench's admin account. Answers the open handle.
 */
export async function makeBook(dataDir: string | null, { chapters: total, parts }: { chapters: number; parts: number }): Promise<DatabaseHandle> {
  const handle = await openDatabase({ driver: "pglite", dataDir });
  await handle.migrate();
  await seed(handle.db);
  await growBook(handle.db, total, parts);
  await handle.db
    .insert(adminAccounts)
    .values({ email: BENCH_ADMIN.email, passwordHash: await hashPassword(BENCH_ADMIN.password) })
    .onConflictDoNothing();
  return handle;
}
