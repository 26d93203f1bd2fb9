/**
 * The search box's results in the navigator's drawer: Operator passages from the static index
 * and, for a reader whose level reaches them, Architect and Mastermind passages from the server,
 * merged best first (merge-results.ts), each a link to its subsection (or chapter). Loaded by the
 * navigator when the box is first used.
 */
import { useEffect, useState, type MouseEvent } from "react";
import type { Level } from "../../../lib/levels.ts";
import { searchWords, type SearchResult } from "../../../lib/search-query.ts";
import { mergeResults } from "./merge-results.ts";
import { searchLocked, searchOpen } from "./sources.ts";

const DEBOUNCE_MS = 150;

type State = { status: "searching" } | { status: "done"; results: SearchResult[]; failed: boolean };

interface Props {
  query: string;
  held: Level | null;
  onChoose: (event: MouseEvent<HTMLAnchorElement>, url: string) => void;
}

export default function SearchResults({ query, held, onChoose }: Props) {
  const [state, setState] = useState<State>({ status: "searching" });

  useEffect(() => {
    let current = true;
    setState({ status: "searching" });
    const timer = window.setTimeout(() => {
      void Promise.allSettled([searchOpen(query), searchLocked(query, held)]).then(([open, locked]) => {
        if (!current) return;
        const failed = open.status === "rejected" || locked.status === "rejected";
        if (failed) console.error("Search failed:", open.status === "rejected" ? open.reason : (locked as PromiseRejectedResult).reason);
        setState({
          status: "done",
          failed,
          results: mergeResults(searchWords(query), open.status === "fulfilled" ? open.value : [], locked.status === "fulfilled" ? locked.value : []),
        });
      });
    }, DEBOUNCE_MS);
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [query, held]);

  if (state.status === "searching") {
    return (
      <p role="status" className="px-5 py-3 text-sm text-[var(--color-muted)]">
        Searching...
      </p>
    );
  }
  return (
    <>
      <p role="status" className="px-5 pt-3 pb-1 text-xs text-[var(--color-muted)]">
        {state.results.length === 0
          ? `Nothing found for “${query.trim()}”.`
          : `${state.results.length} ${state.results.length === 1 ? "passage" : "passages"} found.`}
        {state.failed && " Part of the search did not answer; try again in a moment."}
      </p>
      <ol data-testid="search-results">
        {state.results.map((result) => (
          <li key={result.url}>
            <a href={result.url} onClick={(event) => onChoose(event, result.url)} className="block px-5 py-3 hover:bg-[var(--color-line)]">
              <span className="block text-sm font-medium">{result.title}</span>
              <span className="block text-xs text-[var(--color-muted)]">
                {result.title === result.chapter ? result.level : `${result.chapter} · ${result.level}`}
              </span>
              <span className="mt-1 block text-xs leading-relaxed" data-testid="search-snippet">
                {result.snippet.map((part, i) => (part.mark ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>))}
              </span>
            </a>
          </li>
        ))}
      </ol>
    </>
  );
}
