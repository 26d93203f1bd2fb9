/**
 * A chapter card (SPEC.md section 2): title, level badge, order and slug; expanded, the reading
 * time, a 100-character content preview and the subsections (fetched fresh on each expansion).
 * Actions: expand/collapse, add subsection, edit, delete.
 */
import { chapterNumber } from "../../lib/chapter-number.ts";
import { useStore } from "@nanostores/react";
import { memo, useEffect, useId, useState, type KeyboardEvent } from "react";
import { levelOf } from "../../lib/levels.ts";
import type { AdminChapter, AdminSubsection } from "../../stores/admin-api.ts";
import { $subsections, $subsectionsError, loadSubsections } from "../../stores/admin-content.ts";
import { ChevronIcon, GripIcon } from "./icons.tsx";
import LoadError from "./LoadError.tsx";
import { SORTABLE_ITEM } from "./sortable-list.ts";
import PreviewLinks from "./PreviewLinks.tsx";
import PublishingBadge from "./PublishingBadge.tsx";
import SubsectionList from "./SubsectionList.tsx";
import Skeleton from "./Skeleton.tsx";
import { badge, danger, muted, secondary } from "./ui.ts";

export const PREVIEW_LENGTH = 100;

export function contentPreview(content: string): string {
  return content.length > PREVIEW_LENGTH ? `${content.slice(0, PREVIEW_LENGTH)}...` : content;
}

const levelBadge: Record<string, string> = {
  Operator: "",
  Architect: "border-sky-700 text-sky-800 dark:border-sky-400 dark:text-sky-300",
  Mastermind: "border-[var(--color-accent)] text-[var(--color-accent)]",
};

interface Props {
  chapter: AdminChapter;
  /** Its 1-based place among the chapters readers see in its level, or null (a draft). */
  position: number | null;
  /** Its index in the level's list (what a keyboard move starts from). */
  index: number;
  hintId: string;
  onMoveKey: (index: number, event: KeyboardEvent) => void;
  onAddSubsection: (chapter: AdminChapter) => void;
  onEdit: (chapter: AdminChapter) => void;
  onDelete: (chapter: AdminChapter) => void;
  onEditSubsection: (chapter: AdminChapter, subsection: AdminSubsection) => void;
  onDeleteSubsection: (subsection: AdminSubsection) => void;
}

/**
 * Memoised: the tab's callbacks are stable, so a card renders again only when its chapter, its
 * place or its own state changes (a level of 1,000 cards is mounted in slices: issue 45).
 */
export default memo(ChapterCard);

function ChapterCard(props: Props) {
  const { chapter, position, index, hintId, onMoveKey, onAddSubsection, onEdit, onDelete, onEditSubsection, onDeleteSubsection } = props;
  const [expanded, setExpanded] = useState(false);
  const all = useStore($subsections);
  const subsections = all[chapter.id];
  const subsectionsError = useStore($subsectionsError)[chapter.id];
  const detailsId = useId();
  const titleId = useId();
  const level = levelOf(chapter.level);

  useEffect(() => {
    if (expanded) void loadSubsections(chapter.id);
  }, [expanded, chapter.id]);

  return (
    <li
      {...{ [SORTABLE_ITEM]: "" }}
      data-chapter-id={chapter.id}
      tabIndex={0}
      aria-labelledby={titleId}
      aria-describedby={hintId}
      onKeyDown={(event) => onMoveKey(index, event)}
      // Off screen, a card's contents skip style and layout (its text stays in the page for
      // find-in-page); it keeps the size it last had.
      className="[contain-intrinsic-size:auto_7rem] [content-visibility:auto] rounded-lg border border-[var(--color-line)] bg-[var(--color-panel)] p-4 shadow-sm outline-none focus-visible:ring-2 focus-visible:ring-[var(--color-accent)]"
    >
      <div className="flex flex-wrap items-start gap-3">
        <span
          data-drag-handle="chapter"
          className="mt-0.5 cursor-grab touch-none rounded p-1 text-[var(--color-muted)] hover:bg-[var(--color-line)]"
          title="Drag to reorder"
        >
          <GripIcon />
        </span>
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3 id={titleId} className="font-serif text-lg">
              {chapter.title}
            </h3>
            <span className={`${badge} ${levelBadge[level]}`}>{level}</span>
            <PublishingBadge item={chapter} />
          </div>
          <p className={`${muted} mt-1`}>
            {/* The number readers see on the rail, then the stored order (SPEC: the card shows the order). */}
            {position !== null && <>Chapter {chapterNumber(position)} · </>}
            Order: {chapter.order} · Slug: <code className="font-mono">{chapter.slug}</code>
          </p>
        </div>
        {/* A two-by-two grid of equal buttons on a phone, one row beside the title from 640 px. */}
        <div className="grid w-full grid-cols-2 gap-2 sm:flex sm:w-auto sm:flex-wrap">
          <button
            type="button"
            className={secondary}
            aria-expanded={expanded}
            aria-controls={detailsId}
            onClick={() => setExpanded(!expanded)}
            aria-label={`${expanded ? "Collapse" : "Expand"} ${chapter.title}`}
          >
            <ChevronIcon open={expanded} />
            {expanded ? "Collapse" : "Expand"}
          </button>
          <button type="button" className={secondary} onClick={() => onAddSubsection(chapter)} aria-label={`Add subsection to ${chapter.title}`}>
            Add Subsection
          </button>
          <button type="button" className={secondary} onClick={() => onEdit(chapter)} aria-label={`Edit ${chapter.title}`}>
            Edit
          </button>
          <button type="button" className={danger} onClick={() => onDelete(chapter)} aria-label={`Delete ${chapter.title}`}>
            Delete
          </button>
        </div>
      </div>
      <div id={detailsId} hidden={!expanded} className="mt-4 space-y-3 border-t border-[var(--color-line)] pt-4">
        {expanded && (
          <>
            <p className="text-sm">
              <span className="font-medium">Reading time:</span> {chapter.readingTime} minutes
            </p>
            <p className="text-sm text-[var(--color-muted)]" data-testid="content-preview">
              {contentPreview(chapter.content)}
            </p>
            <PreviewLinks chapter={chapter} />
            <h4 className="text-sm font-semibold">Subsections</h4>
            {subsectionsError ? (
              <LoadError what="subsections" error={subsectionsError} onRetry={() => loadSubsections(chapter.id)} />
            ) : subsections === undefined ? (
              <Skeleton label="Loading subsections..." rows={2} height="h-10" />
            ) : (
              <SubsectionList
                chapterId={chapter.id}
                subsections={subsections}
                hintId={hintId}
                onEdit={(s) => onEditSubsection(chapter, s)}
                onDelete={onDeleteSubsection}
              />
            )}
          </>
        )}
      </div>
    </li>
  );
}
