/**
 * Full-text search of the locked levels (Architect, Mastermind) in PostgreSQL: chapters' and
 * subsections' titles and text, for the levels a session may read. Operator text is searched in
 * the browser from the static index (static-index.ts), so it is not searched here.
 *
 * The words are matched as English lexemes, the last one as a prefix (the box searches as the
 * reader types), all of them required. The GIN indexes `chapters_search_idx` and
 * `subsections_search_idx` hold the very expression matched here. Answers carry titles and a short
 * snippet (ts_headline over the text without its markup), never whole texts.
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

type Row = { chapter_slug: string; chapter_title: string; level: string; part_slug: string | null; title: string; snippet: string; cut_start: boolean; cut_end: boolean };

/** Matches in `levels` (locked levels only: Operator is never searched here), best first. */
export async function searchLocked(db: Database, query: string, levels: readonly Level[]): Promise<SearchResult[]> {
  const locked = levels.filter((level) => level !== "Operator");
  const words = searchWords(query);
  if (locked.length === 0 || words.length === 0) return [];
  const levelList = sql.join(locked.map((level) => sql`${level}`), sql`, `);
  const options = `StartSel=${START}, StopSel=${STOP}, MaxWords=24, MinWords=10, ShortWord=2, MaxFragments=1`;
  const result = (await db.execute(sql`
    WITH q AS (SELECT to_tsquery('english', ${tsQueryOf(words)}) AS q),
    hits AS (
      SELECT c.slug AS chapter_slug, c.title AS chapter_title, c.level, NULL::text AS part_slug, c.title,
        c.content AS body, ts_rank(to_tsvector('english', c.title || ' ' || c.content), q.q) AS rank, c."order" AS chapter_order, -1 AS part_order
      FROM ${chapters} c, q
      WHERE c.deleted_at IS NULL AND c.status = 'published' AND c.level IN (${levelList})
        AND to_tsvector('english', c.title || ' ' || c.content) @@ q.q
      UNION ALL
      SELECT c.slug, c.title, c.level, s.slug, s.title,
        s.content, ts_rank(to_tsvector('english', s.title || ' ' || s.content), q.q), c."order", s."order"
      FROM ${subsections} s JOIN ${chapters} c ON c.id = s.chapter_id, q
      WHERE s.deleted_at IS NULL AND s.status = 'published' AND c.deleted_at IS NULL AND c.status = 'published'
        AND c.level IN (${levelList})
        AND to_tsvector('english', s.title || ' ' || s.content) @@ q.q
      ORDER BY rank DESC, chapter_order, part_order
      LIMIT ${SEARCH_RESULT_LIMIT}
    )
    SELECT chapter_slug, chapter_title, level, part_slug, title, snippet,
      -- Whether the text has words before or after the snippet (not found: say so at both ends), for its ellipses.
      (at = 0 OR substr(plain_text, 1, at - 1) ~ '[[:alnum:]]') AS cut_start,
      (at = 0 OR substr(plain_text, at + length(bare)) ~ '[[:alnum:]]') AS cut_end
    FROM (
      SELECT *, position(bare IN plain_text) AS at
      FROM (
        SELECT *, replace(replace(snippet, ${START}, ''), ${STOP}, '') AS bare
        FROM (SELECT hits.*, ts_headline('english', ${plain(sql.raw("body"))}, q.q, ${options}) AS snippet, ${plain(sql.raw("body"))} AS plain_text FROM hits, q) headed
      ) stripped
    ) placed
    ORDER BY rank DESC, chapter_order, part_order`)) as unknown as { rows: Row[] };
  return result.rows.map((row) => ({
    url: row.part_slug ? `/${row.chapter_slug}#${row.part_slug}` : `/${row.chapter_slug}`,
    level: row.level as SearchResult["level"],
    chapter: row.chapter_title,
    title: row.title,
    // With ellipses where it was cut out of its text (issue 34: 9).
    snippet: withEllipses(snippetParts(row.snippet), row.cut_start, row.cut_end),
  }));
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
