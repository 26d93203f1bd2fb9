/**
 * A list that failed to load (issue 22): what failed, the server's reason and a Retry button,
 * in place of the list, so a failure never reads as an empty list.
 */
import { useState } from "react";
import { secondary } from "./ui.ts";

interface Props {
  /** What could not be loaded, e.g. "chapters". */
  what: string;
  /** The server's reason ("500: ..."), when known. */
  error?: string;
  /** Loads the list again. */
  onRetry: () => Promise<unknown>;
  className?: string;
}

export default function LoadError({ what, error, onRetry, className = "" }: Props) {
  const [retrying, setRetrying] = useState(false);
  return (
    <div
      role="alert"
      className={`flex flex-wrap items-center gap-3 rounded-lg border border-red-700 p-4 text-sm text-red-700 dark:border-red-400 dark:text-red-400 ${className}`}
    >
      <p className="min-w-0 flex-1 break-words">
        Error loading {what}
        {error ? `: ${error}` : "."}
      </p>
      <button
        type="button"
        className={`${secondary} text-[var(--color-ink)]`}
        disabled={retrying}
        onClick={() => {
          setRetrying(true);
          void onRetry().finally(() => setRetrying(false));
        }}
      >
        {retrying ? "Retrying..." : "Retry"}
      </button>
    </div>
  );
}
