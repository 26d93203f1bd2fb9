/**
 * Full-text search of the locked levels (Architect, Mastermind) in PostgreSQL: chapters' and
 * subsections' titles and text, for the levels a session may read. Operator text is searched in
 * the browser from the static index (static-index.ts), so it is not searched here.
 *
 * The words are matched as English lexemes, the last one as a prefix (the box searches as the
 * reader types), all of them required, accents forgiven: text and words are folded alike, by the
 * SQL function `fold_accents` (src/lib/accent-folding.ts), so "jeza" finds "jeża" and "zazolc"
 * "Zażółć". A passage holding the words as they were typed (accents and all) comes first. The GIN
 * indexes `chapters_search_idx` and `subsections_search_idx` hold the very expression matched
 * here. Answers carry titles and a short snippet (ts_headline over the text without its markup,
 * folded, then written back with its accents), never whole texts.
 *
 * Only published text is searched, as readers get it (repositories/chapters.ts): a draft chapter
 * (and every subsection in it) and a draft subsection are left out, and a published item's
 * pending draft lives in its `draft` column, which is never searched.
 */
import type { Level } from "../../lib/levels.ts";
import { searchWords, withEllipses, type SearchResult, type SnippetPart } from "../../lib/search-query.ts";
import { sql } from "../db/orm.ts";
import type { Database } from "../db/types.ts";
import { chapters, subsections } from "../db/schema.ts";

export const SEARCH_RESULT_LIMIT = 20;

/** Marks around matched words in ts_headline's output: private-use characters, stripped from texts first. */
const START = "\uE000";
const STOP = "\uE001";

/** The tsquery text of a reader's words: each quoted (a lexeme, never an operator), the last a prefix. */
export function tsQueryOf(words: readonly string[]): string {
  return words.map((word, i) => `'${word}'${i === words.length - 1 ? ":*" : ""}`).join(" & ");
}

/** The text of light markup as a reader sees it: link targets, heading, quote and bold marks dropped. */
const plain = (column: unknown) =>
  sql`regexp_replace(regexp_replace(${column}, '\\[([^\\]]*)\\]\\([^)]*\\)', '\\1', 'g'), '[*#>_\\uE000\\uE001]+', '', 'g')`;

type Row = {
  chapter_slug: string;
  chapter_title: string;
  level: string;
  part_slug: string | null;
  title: string;
  snippet: string;
  /** The snippet's text as written (accents and all), or null where it was not found in it. */
  written: string | null;
  cut_start: boolean;
  cut_end: boolean;
};

/** The folded text a search matches (the indexes' expression), of a row's title and text. */
const foldedVector = (row: string) => sql.raw(`to_tsvector('english', fold_accents(${row}.title || ' ' || ${row}.content))`);
/** The same text as written, which the words as typed match. */
const typedVector = (row: string) => sql.raw(`to_tsvector('english', ${row}.title || ' ' || ${row}.content)`);

/** Matches in `levels` (locked levels only: Operator is never searched here), best first. */
export async function searchLocked(db: Database, query: string, levels: readonly Level[]): Promise<SearchResult[]> {
  const locked = levels.filter((level) => level !== "Operator");
  const words = searchWords(query);
  if (locked.length === 0 || words.length === 0) return [];
  const levelList = sql.join(locked.map((level) => sql`${level}`), sql`, `);
  const options = `StartSel=${START}, StopSel=${STOP}, MaxWords=24, MinWords=10, ShortWord=2, MaxFragments=1`;
  const result = (await db.execute(sql`
    WITH q AS (SELECT to_tsquery('english', fold_accents(${tsQueryOf(words)})) AS q, to_tsquery('english', ${tsQueryOf(words)}) AS typed),
    hits AS (
      SELECT c.slug AS chapter_slug, c.title AS chapter_title, c.level, NULL::text AS part_slug, c.title,
        c.content AS body, ${typedVector("c")} @@ q.typed AS as_typed, ts_rank(${foldedVector("c")}, q.q) AS rank, c."order" AS chapter_order, -1 AS part_order
      FROM ${chapters} c, q
      WHERE c.deleted_at IS NULL AND c.status = 'published' AND c.level IN (${levelList})
        AND ${foldedVector("c")} @@ q.q
      UNION ALL
      SELECT c.slug, c.title, c.level, s.slug, s.title,
        s.content, ${typedVector("s")} @@ q.typed, ts_rank(${foldedVector("s")}, q.q), c."order", s."order"
      FROM ${subsections} s JOIN ${chapters} c ON c.id = s.chapter_id, q
      WHERE s.deleted_at IS NULL AND s.status = 'published' AND c.deleted_at IS NULL AND c.status = 'published'
        AND c.level IN (${levelList})
        AND ${foldedVector("s")} @@ q.q
      ORDER BY as_typed DESC, rank DESC, chapter_order, part_order
      LIMIT ${SEARCH_RESULT_LIMIT}
    )
    SELECT chapter_slug, chapter_title, level, part_slug, title, snippet,
      -- The snippet is of the folded text, as long as the text: the same place in it is the snippet as written.
      CASE WHEN at > 0 THEN substr(plain_text, at, length(bare)) END AS written,
      -- Whether the text has words before or after the snippet (not found: say so at both ends), for its ellipses.
      (at = 0 OR substr(plain_text, 1, at - 1) ~ '[[:alnum:]]') AS cut_start,
      (at = 0 OR substr(plain_text, at + length(bare)) ~ '[[:alnum:]]') AS cut_end
    FROM (
      SELECT *, position(bare IN fold_accents(plain_text)) AS at
      FROM (
        SELECT *, replace(replace(snippet, ${START}, ''), ${STOP}, '') AS bare
        FROM (
          SELECT texts.*, ts_headline('english', fold_accents(plain_text), q.q, ${options}) AS snippet
          FROM (SELECT hits.*, ${plain(sql.raw("body"))} AS plain_text FROM hits) texts, q
        ) headed
      ) stripped
    ) placed
    ORDER BY as_typed DESC, rank DESC, chapter_order, part_order`)) as unknown as { rows: Row[] };
  return result.rows.map((row) => ({
    url: row.part_slug ? `/${row.chapter_slug}#${row.part_slug}` : `/${row.chapter_slug}`,
    level: row.level as SearchResult["level"],
    chapter: row.chapter_title,
    title: row.title,
    // With ellipses where it was cut out of its text (issue 34: 9).
    snippet: withEllipses(snippetParts(row.written === null ? row.snippet : writtenBack(row.snippet, row.written)), row.cut_start, row.cut_end),
  }));
}

/**
 * ts_headline's snippet of the folded text with its letters as `written` (the same stretch of the
 * text as written, without the marks): folding keeps one letter for one, so each letter of the
 * snippet has its own in `written`, in order.
 */
export function writtenBack(headline: string, written: string): string {
  const letters = Array.from(written);
  let at = 0;
  return Array.from(headline, (letter) => (letter === START || letter === STOP ? letter : (letters[at++] ?? letter))).join("");
}

/** ts_headline's text with its marks as parts, whitespace folded. */
export function snippetParts(headline: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  const pieces = headline.replace(/\s+/g, " ").trim().split(new RegExp(`(${START}[^${STOP}]*${STOP})`));
  for (const piece of pieces) {
    if (!piece) continue;
    if (piece.startsWith(START)) parts.push({ text: piece.slice(1, -1), mark: true });
    else parts.push({ text: piece });
  }
  return parts;
}
