/**
 * The history of a chapter or subsection in its edit dialog (issue 14): the kept versions, newest
 * first, each with when and by whom it was saved; the chosen one shown against the current text
 * (changed fields, and the content line by line); "Restore this version" writes it back as a new
 * save, published as an edit is.
 */
import { useEffect, useState } from "react";
import { diffLines } from "../../lib/text-diff.ts";
import type { ItemKind, Revision } from "../../stores/admin-api.ts";
import { loadRevisions, restoreRevision } from "../../stores/admin-content.ts";
import LoadError from "./LoadError.tsx";
import Skeleton from "./Skeleton.tsx";
import { formatTime, muted, primary, secondary } from "./ui.ts";

const FIELD_NAMES: Record<string, string> = {
  title: "Title",
  slug: "Slug",
  level: "Level",
  readingTime: "Reading time",
  order: "Order",
  photo: "Photo",
  photoAlt: "Photo description",
  teaser: "Teaser",
  status: "Status",
  chapterId: "Chapter",
};

interface Props {
  kind: ItemKind;
  itemId: number;
  /** The current (published or draft) version's fields, to compare with. */
  current: object;
  chapterId: number;
  onRestored: () => void;
}

export default function RevisionHistory({ kind, itemId, current: currentItem, chapterId, onRestored }: Props) {
  const current = currentItem as Record<string, unknown>;
  const [open, setOpen] = useState(false);
  const [revisions, setRevisions] = useState<Revision[] | null | undefined>(undefined);
  const [chosen, setChosen] = useState<number | null>(null);
  const [pending, setPending] = useState(false);

  const load = () =>
    loadRevisions(kind, itemId).then((list) => {
      setRevisions(list);
      setChosen(list?.[0]?.id ?? null);
    });
  useEffect(() => {
    if (!open) return;
    let live = true;
    void loadRevisions(kind, itemId).then((list) => {
      if (!live) return;
      setRevisions(list);
      setChosen(list?.[0]?.id ?? null);
    });
    return () => {
      live = false;
    };
  }, [open, kind, itemId]);

  const revision = revisions?.find((r) => r.id === chosen);
  const show = (value: unknown) => (value === null || value === undefined || value === "" ? "(none)" : String(value));

  return (
    <section aria-label="History" className="mt-6 border-t border-[var(--color-line)] pt-4">
      <button type="button" className={secondary} aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? "Hide history" : "Show history"}
      </button>
      {open && revisions === undefined && <Skeleton label="Loading the history..." rows={2} height="h-10" className="mt-3" />}
      {open && revisions === null && <LoadError what="the history" onRetry={load} className="mt-3" />}
      {open && revisions?.length === 0 && <p className={`${muted} mt-3`}>No earlier versions yet: each save keeps the version it replaces.</p>}
      {open && revisions && revisions.length > 0 && (
        <div className="mt-3 grid gap-4 sm:grid-cols-[14rem_1fr]">
          <ol aria-label="Earlier versions" className="max-h-72 space-y-1 overflow-y-auto">
            {revisions.map((r) => (
              <li key={r.id}>
                <button
                  type="button"
                  aria-pressed={r.id === chosen}
                  onClick={() => setChosen(r.id)}
                  className={`w-full rounded-md border px-2 py-1.5 text-left text-sm ${r.id === chosen ? "border-[var(--color-accent)]" : "border-[var(--color-line)]"}`}
                >
                  <span className="block">{formatTime(r.savedAt)}</span>
                  <span className="block truncate text-xs text-[var(--color-muted)]">
                    {r.savedBy ?? "unknown"}
                    {r.fields.status === "draft" ? " · draft" : ""}
                  </span>
                </button>
              </li>
            ))}
          </ol>
          {revision && (
            <div className="min-w-0 space-y-3" data-testid="revision-diff">
              <p className={muted}>
                Saved {formatTime(revision.savedAt)} by {revision.savedBy ?? "unknown"}; replaced {formatTime(revision.replacedAt)} by {revision.replacedBy ?? "the scheduled job"}. Compared with the current text:
              </p>
              <ul className="space-y-1 text-sm">
                {Object.keys(FIELD_NAMES)
                  .filter((key) => key in revision.fields && String(revision.fields[key] ?? "") !== String(current[key] ?? ""))
                  .map((key) => (
                    <li key={key}>
                      <span className="font-medium">{FIELD_NAMES[key]}:</span> <del className="text-red-700 dark:text-red-400">{show(revision.fields[key])}</del> →{" "}
                      <ins className="text-green-800 no-underline dark:text-green-400">{show(current[key])}</ins>
                    </li>
                  ))}
              </ul>
              <pre aria-label="Differences from the current text" className="max-h-72 overflow-auto rounded-md border border-[var(--color-line)] p-2 text-xs leading-5 whitespace-pre-wrap">
                {diffLines(String(revision.fields.content ?? ""), String(current.content ?? "")).map((line, i) =>
                  line.kind === "same" ? (
                    <div key={i}>{`  ${line.text}`}</div>
                  ) : line.kind === "removed" ? (
                    <del key={i} className="block bg-red-100 text-red-900 no-underline dark:bg-red-950 dark:text-red-200">{`- ${line.text}`}</del>
                  ) : (
                    <ins key={i} className="block bg-green-100 text-green-900 no-underline dark:bg-green-950 dark:text-green-200">{`+ ${line.text}`}</ins>
                  ),
                )}
              </pre>
              <p className="text-xs text-[var(--color-muted)]">Lines marked − are in this version only; lines marked + are in the current text only.</p>
              <p className="text-xs text-[var(--color-muted)]">
                Restoring brings back this version's words ({kind === "chapter" ? "title, text, level and teaser" : "title, text and photo"}); the address (slug) and the place in the book stay as they are now.
              </p>
              <button
                type="button"
                className={primary}
                disabled={pending}
                onClick={() => {
                  setPending(true);
                  void restoreRevision(revision, chapterId).then((ok) => {
                    setPending(false);
                    if (ok) onRestored();
                  });
                }}
              >
                {pending ? "Restoring..." : "Restore this version"}
              </button>
            </div>
          )}
        </div>
      )}
    </section>
  );
}
