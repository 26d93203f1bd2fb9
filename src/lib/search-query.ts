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

/** One search result, from either source: it links to the subsection (or the chapter). */
export interface SearchResult {
  url: string;
  level: "Operator" | "Architect" | "Mastermind";
  chapter: string;
  /** The subsection's title, or the chapter's when the match is in the chapter's own text. */
  title: string;
  snippet: SnippetPart[];
}
