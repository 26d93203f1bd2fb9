/**
 * What a reader's search box text becomes, the same in the browser and on the server: at most
 * eight words of letters and digits, lowercased. Anything else (quotes, operators, markup) is
 * dropped, so a query can never be read as search syntax.
 */
export const SEARCH_MAX_LENGTH = 200;
export const SEARCH_MIN_LENGTH = 2;

export function searchWords(query: string): string[] {
  return (query.normalize("NFKC").toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 8);
}

/** One part of a result's snippet: plain text, `mark`ed where it matched the query. */
export interface SnippetPart {
  text: string;
  mark?: true;
}

/**
 * A snippet as a passage shows it (issue 34: 9): where it was cut out of a longer text, an
 * ellipsis says so, at its start, its end or both. (Both sources cut at word boundaries.)
 */
export function withEllipses(parts: readonly SnippetPart[], cutStart: boolean, cutEnd: boolean): SnippetPart[] {
  if (parts.length === 0) return [];
  return [...(cutStart ? [{ text: "…" }] : []), ...parts, ...(cutEnd ? [{ text: "…" }] : [])];
}

/**
 * A snippet of the static index, whose record's `content` is its title, a space, then its text
 * (src/server/build/search-records.ts): the part of the snippet that is the title is taken off, so
 * the title never runs into the passage's first words, and ellipses mark where the snippet was cut.
 */
export function passageSnippet(parts: readonly SnippetPart[], content: string, title: string): SnippetPart[] {
  const text = parts.map((part) => part.text).join("");
  const titleEnd = title && content.startsWith(title) ? title.length : 0;
  // Where the passage's own text starts: after the title and the space that follows it.
  const bodyStart = titleEnd + (content.slice(titleEnd).length - content.slice(titleEnd).trimStart().length);
  let at = content.indexOf(text);
  // Not found as it is (the index folded something): cut somewhere, as far as anyone can tell.
  if (at === -1) return withEllipses(parts, true, true);
  let kept = [...parts];
  if (at < bodyStart) {
    kept = dropStart(kept, bodyStart - at);
    at = bodyStart;
  }
  const keptText = kept.map((part) => part.text).join("");
  const lead = keptText.length - keptText.trimStart().length;
  kept = dropStart(kept, lead);
  const end = at + keptText.length;
  return withEllipses(kept, at + lead > bodyStart, end < content.trimEnd().length);
}

/** `parts` without their first `count` characters. */
function dropStart(parts: readonly SnippetPart[], count: number): SnippetPart[] {
  const out: SnippetPart[] = [];
  let left = count;
  for (const part of parts) {
    if (left >= part.text.length) {
      left -= part.text.length;
      continue;
    }
    out.push({ ...part, text: part.text.slice(left) });
    left = 0;
  }
  return out;
}

/** One search result, from either source: it links to the subsection (or the chapter). */
export interface SearchResult {
  url: string;
  level: "Operator" | "Architect" | "Mastermind";
  chapter: string;
  /** The subsection's title, or the chapter's when the match is in the chapter's own text. */
  title: string;
  snippet: SnippetPart[];
}
