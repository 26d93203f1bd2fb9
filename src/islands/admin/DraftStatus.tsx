/**
 * A chapter's or subsection's publishing state in its edit dialog (issue 14): a draft, or a
 * published item with a draft waiting (and when it is scheduled), with "Publish now" and, for a
 * pending draft, "Discard draft".
 */
import { useState } from "react";
import type { ItemKind } from "../../stores/admin-api.ts";
import { discardDraft, publishDraft } from "../../stores/admin-content.ts";
import { formatTime, primary, secondary } from "./ui.ts";

interface Props {
  kind: ItemKind;
  item: { id: number; status?: string; draft?: unknown; publishAt?: string | null; draftSavedAt?: string | null; draftSavedBy?: string | null };
  chapterId: number;
  onDone: () => void;
}

export default function DraftStatus({ kind, item, chapterId, onDone }: Props) {
  const [pending, setPending] = useState(false);
  const isDraft = item.status === "draft";
  const hasPending = Boolean(item.draft);
  if (!isDraft && !hasPending) return null;
  const noun = kind === "chapter" ? "chapter" : "subsection";
  const run = (action: () => Promise<boolean>) => {
    setPending(true);
    void action().then((ok) => {
      setPending(false);
      if (ok) onDone();
    });
  };
  return (
    <div role="note" className="mb-4 rounded-md border border-amber-600 bg-amber-50 p-3 text-sm text-amber-950 dark:bg-amber-950 dark:text-amber-100" data-testid="draft-status">
      <p>
        {isDraft
          ? `This ${noun} is a draft: readers do not see it.`
          : `A draft is waiting (saved ${formatTime(item.draftSavedAt)}${item.draftSavedBy ? ` by ${item.draftSavedBy}` : ""}); the form shows it. Readers see the published text until it is published.`}
        {item.publishAt ? ` It will be published at ${formatTime(item.publishAt)}.` : ""}
      </p>
      <div className="mt-2 flex flex-wrap gap-2">
        <button type="button" className={primary} disabled={pending} onClick={() => run(() => publishDraft(kind, item.id, chapterId))}>
          Publish now
        </button>
        {hasPending && (
          <button type="button" className={secondary} disabled={pending} onClick={() => run(() => discardDraft(kind, item.id, chapterId))}>
            Discard draft
          </button>
        )}
      </div>
    </div>
  );
}
