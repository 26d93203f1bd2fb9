/**
 * A chapter's subsections in the admin panel, in order: number, title, slug, photo thumbnail,
 * Edit and Delete. Reorder by dragging the handle (a drag starts after 8 px) or with
 * Alt+ArrowUp / Alt+ArrowDown on a focused row.
 */
import type { KeyboardEvent } from "react";
import type { AdminSubsection } from "../../stores/admin-api.ts";
import { announce, moveAnnouncement } from "../../stores/admin-announcer.ts";
import { reorderSubsections } from "../../stores/admin-content.ts";
import PublishingBadge from "./PublishingBadge.tsx";
import { GripIcon } from "./icons.tsx";
import { focusItemLater, keyboardTarget, moved, SORTABLE_ITEM, useSortableList } from "./sortable-list.ts";
import { danger, muted, secondary } from "./ui.ts";

export const SUBSECTION_DRAG_DISTANCE_PX = 8;

interface Props {
  chapterId: number;
  subsections: AdminSubsection[];
  hintId: string;
  onEdit: (subsection: AdminSubsection) => void;
  onDelete: (subsection: AdminSubsection) => void;
}

export default function SubsectionList({ chapterId, subsections, hintId, onEdit, onDelete }: Props) {
  const move = (from: number, to: number, viaKeyboard: boolean) => {
    const next = moved(subsections, from, to);
    const item = subsections[from]!;
    announce(moveAnnouncement(item.title, to + 1, next.length));
    if (viaKeyboard) focusItemLater("subsection", item.id);
    void reorderSubsections(
      chapterId,
      next.map((s) => s.id),
    );
  };
  const listRef = useSortableList({
    handle: "[data-drag-handle='subsection']",
    tolerance: SUBSECTION_DRAG_DISTANCE_PX,
    onMove: (from, to) => move(from, to, false),
  });

  if (subsections.length === 0) return <p className={muted}>No subsections yet.</p>;
  return (
    <ol ref={listRef} className="space-y-2" aria-label="Subsections">
      {subsections.map((subsection, index) => (
        <li
          key={subsection.id}
          {...{ [SORTABLE_ITEM]: "" }}
          data-subsection-id={subsection.id}
          tabIndex={0}
          aria-describedby={hintId}
          onKeyDown={(event: KeyboardEvent) => {
            const to = keyboardTarget(event, index, subsections.length);
            if (to === null) return;
            event.preventDefault();
            move(index, to, true);
          }}
          className="flex flex-wrap items-center gap-3 rounded-md border border-[var(--color-line)] bg-[var(--color-page)] p-2.5 outline-none focus-visible:ring-2 focus-visible:ring-[var(--color-accent)]"
        >
          <span
            data-drag-handle="subsection"
            className="cursor-grab touch-none rounded p-1 text-[var(--color-muted)] hover:bg-[var(--color-line)]"
            title="Drag to reorder"
          >
            <GripIcon />
          </span>
          <span className="w-7 font-mono text-sm text-[var(--color-muted)]">{String(index + 1).padStart(2, "0")}</span>
          {subsection.photo && <img src={subsection.photo} alt="" className="h-9 w-9 rounded object-cover" loading="lazy" />}
          {/* At least 9rem for the title: on a phone the buttons go to a line of their own instead. */}
          <span className="min-w-36 flex-1">
            <span className="block truncate font-medium">
              {subsection.title} <PublishingBadge item={subsection} />
            </span>
            <span className="block truncate text-xs text-[var(--color-muted)]">{subsection.slug}</span>
          </span>
          <span className="ml-auto flex gap-2">
            <button type="button" className={secondary} onClick={() => onEdit(subsection)} aria-label={`Edit subsection ${subsection.title}`}>
              Edit
            </button>
            <button type="button" className={danger} onClick={() => onDelete(subsection)} aria-label={`Delete subsection ${subsection.title}`}>
              Delete
            </button>
          </span>
        </li>
      ))}
    </ol>
  );
}
