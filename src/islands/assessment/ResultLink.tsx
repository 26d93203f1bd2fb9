/**
 * On 'Scan Complete': the private link to this result, to reopen it later. Anyone holding the link
 * sees the result (never the name or email), so the text says to keep it to oneself.
 */
import { useId, useState } from "react";

export default function ResultLink({ path }: { path: string }) {
  const [copied, setCopied] = useState(false);
  const id = useId();
  const address = new URL(path, window.location.href).toString();
  return (
    <section className="mt-10 rounded-lg border border-line p-5" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="text-base font-semibold">
        Your private link to this result
      </h2>
      <p className="mt-1 text-sm text-muted">Keep it to reopen this result later. Anyone with the link can read the result, but not your name or email.</p>
      <div className="mt-3 flex flex-wrap gap-2">
        <label htmlFor={id} className="sr-only">
          Private link to your result
        </label>
        <input
          id={id}
          readOnly
          value={address}
          data-testid="result-link"
          className="min-w-0 flex-1 rounded-md border border-line bg-transparent px-3 py-2 text-sm"
          onFocus={(e) => e.currentTarget.select()}
        />
        <button
          type="button"
          className="inline-flex items-center justify-center rounded-md border border-line px-4 py-2 text-sm font-semibold hover:bg-panel"
          onClick={() => {
            void navigator.clipboard?.writeText(address).then(
              () => setCopied(true),
              () => setCopied(false),
            );
          }}
        >
          {copied ? "Copied" : "Copy link"}
        </button>
      </div>
      <p role="status" className="sr-only">
        {copied ? "Link copied" : ""}
      </p>
    </section>
  );
}
