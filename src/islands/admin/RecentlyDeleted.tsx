/**
 * The Recently Deleted Items card (SPEC.md sections 2 and 4): shown whenever deleted chapters or
 * subsections exist; each can be restored within 24 hours of its deletion.
 */
import { useStore } from "@nanostores/react";
import { useState } from "react";
import { $deletedChapters, $deletedError, $deletedSubsections, loadDeleted, restoreChapter, restoreSubsection } from "../../stores/admin-content.ts";
import LoadError from "./LoadError.tsx";
import { card, formatTime, muted, secondary } from "./ui.ts";

export const RESTORE_WINDOW_MS = 24 * 60 * 60 * 1000;

function timeLeft(deletedAt: string): string {
  const left = Date.parse(deletedAt) + RESTORE_WINDOW_MS - Date.now();
  if (!(left > 0)) return "restore window over";
  const hours = Math.floor(left / 3_600_000);
  return hours >= 1 ? `${hours} h left to restore` : `${Math.max(1, Math.floor(left / 60_000))} min left to restore`;
}

export default function RecentlyDeleted() {
  const chapters = useStore($deletedChapters);
  const subsections = useStore($deletedSubsections);
  const error = useStore($deletedError);
  const [busy, setBusy] = useState<string | null>(null);
  if (error) return <LoadError what="Recently Deleted Items" error={error} onRetry={loadDeleted} className="mt-8" />;
  if (chapters.length === 0 && subsections.length === 0) return null;

  const restore = async (key: string, action: () => Promise<void>) => {
    setBusy(key);
    await action();
    setBusy(null);
  };

  return (
    <section className={`${card} mt-8`} aria-labelledby="recently-deleted-title">
      <h2 id="recently-deleted-title" className="font-serif text-lg">
        Recently Deleted Items
      </h2>
      <p className={`${muted} mt-1`}>Deleted items can be restored within 24 hours. A restored chapter brings back the subsections deleted with it.</p>
      <ul className="mt-4 divide-y divide-[var(--color-line)]">
        {chapters.map((chapter) => (
          <DeletedItem
            key={`c${chapter.id}`}
            title={chapter.title}
            detail={`Chapter · ${chapter.level ?? "Operator"}`}
            deletedAt={chapter.deletedAt}
            label={`Restore chapter ${chapter.title}`}
            disabled={busy !== null}
            onRestore={() => void restore(`c${chapter.id}`, () => restoreChapter(chapter.id))}
          />
        ))}
        {subsections.map((subsection) => (
          <DeletedItem
            key={`s${subsection.id}`}
            title={subsection.title}
            detail={`Subsection of ${subsection.chapterTitle}`}
            deletedAt={subsection.deletedAt}
            label={`Restore subsection ${subsection.title}`}
            disabled={busy !== null}
            onRestore={() => void restore(`s${subsection.id}`, () => restoreSubsection(subsection.id))}
          />
        ))}
      </ul>
    </section>
  );
}

function DeletedItem(props: { title: string; detail: string; deletedAt: string; label: string; disabled: boolean; onRestore: () => void }) {
  return (
    <li className="flex flex-wrap items-center gap-3 py-2.5">
      <span className="min-w-0 flex-1">
        <span className="font-medium">{props.title}</span>
        <span className={`${muted} block`}>
          {props.detail} · deleted {formatTime(props.deletedAt)} · {timeLeft(props.deletedAt)}
        </span>
      </span>
      <button type="button" className={secondary} disabled={props.disabled} onClick={props.onRestore} aria-label={props.label}>
        Restore
      </button>
    </li>
  );
}
