/**
 * /assessment/result#{token}: a scan result reopened from its private link. The token is read
 * from the fragment (never sent to the server as part of the page's address) and exchanged for
 * the result: score, level and description, nothing about the person.
 */
import { useEffect, useState } from "react";
import { ApiError, apiRequest, errorMessage } from "../../lib/api-client.ts";
import type { ScanResult } from "../../lib/assessment/shape.ts";
import ResultBody from "./ResultBody.tsx";

type State = { kind: "loading" } | { kind: "missing" } | { kind: "error"; message: string } | { kind: "result"; result: ScanResult };

export default function SavedResult({ scheduleUrl }: { scheduleUrl: string }) {
  const [state, setState] = useState<State>({ kind: "loading" });

  useEffect(() => {
    // A link pasted over this one (only the fragment changes) opens the new result.
    const open = () => {
      const token = window.location.hash.slice(1);
      if (!token) return setState({ kind: "missing" });
      setState({ kind: "loading" });
      apiRequest<ScanResult>("GET", `/api/assessment/result/${encodeURIComponent(token)}`).then(
        (result) => setState({ kind: "result", result }),
        (error: unknown) => setState(error instanceof ApiError && error.status === 404 ? { kind: "missing" } : { kind: "error", message: errorMessage(error) }),
      );
    };
    open();
    window.addEventListener("hashchange", open);
    return () => window.removeEventListener("hashchange", open);
  }, []);

  if (state.kind === "loading") {
    return (
      <p role="status" className="text-muted">
        Loading your result...
      </p>
    );
  }
  if (state.kind === "missing" || state.kind === "error") {
    return (
      <div>
        <h1 className="font-serif text-4xl">Result not found</h1>
        <p className="mt-4 text-muted">
          {state.kind === "missing" ? "No result has this link. Check that the whole address was copied." : `The result could not be loaded: ${state.message}`}
        </p>
        <p className="mt-8">
          <a className="cta-button" href="/assessment">
            Take the scan
          </a>
        </p>
      </div>
    );
  }
  const { result } = state;
  return (
    <div>
      <p className="text-xs uppercase tracking-widest text-muted">Mental Operating System Scan</p>
      <h1 className="mt-3 font-serif text-4xl">Your Result</h1>
      <ResultBody result={result} />
      <div className="mt-10 flex flex-wrap gap-3">
        <a className="cta-button" href={scheduleUrl} target="_blank" rel="noopener noreferrer">
          Claim Your Free Session<span className="sr-only"> (opens another site in a new tab)</span>
        </a>
      </div>
    </div>
  );
}
