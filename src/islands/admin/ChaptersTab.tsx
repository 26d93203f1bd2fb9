/**
 * The Chapters tab (SPEC.md section 2): sub-tabs Operator, Architect and Mastermind with counts;
 * the chosen level's chapters in order, reorderable by drag or keyboard; the four dialogs; the
 * delete confirmations; and the Recently Deleted Items card.
 *
 * A long level (issue 45: 1,000 chapters) is mounted in slices: the first screenful of cards at
 * once, the rest a slice a frame after, so the tab shows its list at once. Counts, moves and the
 * order saved come from the whole level, never from the cards mounted so far.
 */
import { useStore } from "@nanostores/react";
import { startTransition, useCallback, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { LEVELS, type Level } from "../../lib/levels.ts";
import type { AdminChapter, AdminSubsection } from "../../stores/admin-api.ts";
import { announce, moveAnnouncement } from "../../stores/admin-announcer.ts";
import {
  $chapters,
  $subsections,
  chaptersOf,
  deleteChapter,
  deleteSubsection,
  loadSubsections,
  reorderChapters,
} from "../../stores/admin-content.ts";
import ChapterCard from "./ChapterCard.tsx";
import ChapterForm from "./ChapterForm.tsx";
import ConfirmDialog, { type Confirmation } from "./ConfirmDialog.tsx";
import Dialog from "./Dialog.tsx";
import RecentlyDeleted from "./RecentlyDeleted.tsx";
import SubsectionForm from "./SubsectionForm.tsx";
import { focusItemLater, keyboardTarget, moved, useSortableList } from "./sortable-list.ts";
import { TabPanel, Tabs } from "./Tabs.tsx";
import { card, muted, primary } from "./ui.ts";

type DialogState =
  | { kind: "create-chapter"; level?: Level }
  | { kind: "edit-chapter"; chapter: AdminChapter }
  | { kind: "add-subsection"; chapter: AdminChapter; order: number }
  | { kind: "edit-subsection"; chapter: AdminChapter; subsection: AdminSubsection };

/** Cards mounted with the list (more than a tall screen holds), then per slice. */
export const FIRST_CARDS = 30;
export const CARDS_PER_SLICE = 100;

/** Each chapter's 1-based place among those readers see (published, not deleted), as readersPosition has it, in one pass. */
function readersPositions(list: readonly { id: number; status?: string; deletedAt?: string | null }[]): Map<number, number> {
  const positions = new Map<number, number>();
  for (const chapter of list) if (chapter.status !== "draft" && !chapter.deletedAt) positions.set(chapter.id, positions.size + 1);
  return positions;
}

const dialogTitle: Record<DialogState["kind"], string> = {
  "create-chapter": "Create New Chapter",
  "edit-chapter": "Edit Chapter",
  "add-subsection": "Add Subsection",
  "edit-subsection": "Edit Subsection",
};

export default function ChaptersTab() {
  const chapters = useStore($chapters);
  const [level, setLevel] = useState<Level>("Operator");
  const [dialog, setDialog] = useState<DialogState | null>(null);
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const hintId = useId();
  const list = useMemo(() => chaptersOf(chapters, level), [chapters, level]);
  const counts = useMemo(() => LEVELS.map((l) => (l === level ? list.length : chaptersOf(chapters, l).length)), [chapters, level, list]);
  const positions = useMemo(() => readersPositions(list), [list]);
  const [shown, setShown] = useState(FIRST_CARDS);
  const selectLevel = (next: Level) => {
    setLevel(next);
    setShown(FIRST_CARDS);
  };
  // The next slice after the browser has painted the cards so far.
  useEffect(() => {
    if (shown >= list.length) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => startTransition(() => setShown((n) => n + CARDS_PER_SLICE)));
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [shown, list.length]);

  const move = (from: number, to: number, viaKeyboard: boolean) => {
    const next = moved(list, from, to);
    const chapter = list[from]!;
    announce(moveAnnouncement(chapter.title, to + 1, next.length));
    if (viaKeyboard) focusItemLater("chapter", chapter.id);
    void reorderChapters(next.map((c) => c.id));
  };
  const listRef = useSortableList({ handle: "[data-drag-handle='chapter']", tolerance: 0, onMove: (from, to) => move(from, to, false) });

  const openAddSubsection = async (chapter: AdminChapter) => {
    await loadSubsections(chapter.id);
    setDialog({ kind: "add-subsection", chapter, order: $subsections.get()[chapter.id]?.length ?? 0 });
  };
  const askDeleteChapter = (chapter: AdminChapter) =>
    setConfirmation({
      title: "Delete chapter?",
      message: `"${chapter.title}" and its subsections will move to Recently Deleted Items, where they can be restored within 24 hours.`,
      confirmLabel: "Delete Chapter",
      action: () => deleteChapter(chapter.id),
    });
  const askDeleteSubsection = (subsection: AdminSubsection) =>
    setConfirmation({
      title: "Delete subsection?",
      message: `"${subsection.title}" will move to Recently Deleted Items, where it can be restored within 24 hours.`,
      confirmLabel: "Delete Subsection",
      action: () => {
        void deleteSubsection(subsection);
      },
    });

  // The cards' callbacks, stable across renders (the cards are memoised), calling the latest render's.
  const latest = useRef({ list, move, openAddSubsection, askDeleteChapter, askDeleteSubsection });
  useEffect(() => {
    latest.current = { list, move, openAddSubsection, askDeleteChapter, askDeleteSubsection };
  });
  const onMoveKey = useCallback((index: number, event: KeyboardEvent) => {
    const to = keyboardTarget(event, index, latest.current.list.length);
    if (to === null) return;
    event.preventDefault();
    latest.current.move(index, to, true);
  }, []);
  const onAddSubsection = useCallback((c: AdminChapter) => void latest.current.openAddSubsection(c), []);
  const onEdit = useCallback((c: AdminChapter) => setDialog({ kind: "edit-chapter", chapter: c }), []);
  const onDelete = useCallback((c: AdminChapter) => latest.current.askDeleteChapter(c), []);
  const onEditSubsection = useCallback((c: AdminChapter, subsection: AdminSubsection) => setDialog({ kind: "edit-subsection", chapter: c, subsection }), []);
  const onDeleteSubsection = useCallback((subsection: AdminSubsection) => latest.current.askDeleteSubsection(subsection), []);

  const close = () => setDialog(null);
  return (
    <div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Tabs
          label="Chapter levels"
          idPrefix="level"
          size="small"
          selected={level}
          onSelect={selectLevel}
          items={LEVELS.map((l, i) => ({ id: l, label: `${l} (${counts[i]})` }))}
        />
        <button type="button" className={`${primary} w-full sm:w-auto`} onClick={() => setDialog({ kind: "create-chapter" })}>
          Create New Chapter
        </button>
      </div>
      <TabPanel idPrefix="level" id={level}>
        {list.length === 0 ? (
          <div className={`${card} text-center`}>
            <p className="text-[var(--color-muted)]">No chapters in {level}</p>
            <button type="button" className={`${primary} mt-4`} onClick={() => setDialog({ kind: "create-chapter", level })}>
              Add Chapter
            </button>
          </div>
        ) : (
          <>
            <p id={hintId} className={`${muted} mb-3`}>
              To reorder, drag a card by its handle, or focus a card and press Alt+ArrowUp or Alt+ArrowDown.
            </p>
            <ol ref={listRef} className="space-y-3" aria-label={`${level} chapters`}>
              {list.slice(0, shown).map((chapter, index) => (
                <ChapterCard
                  key={chapter.id}
                  chapter={chapter}
                  position={positions.get(chapter.id) ?? null}
                  index={index}
                  hintId={hintId}
                  onMoveKey={onMoveKey}
                  onAddSubsection={onAddSubsection}
                  onEdit={onEdit}
                  onDelete={onDelete}
                  onEditSubsection={onEditSubsection}
                  onDeleteSubsection={onDeleteSubsection}
                />
              ))}
            </ol>
          </>
        )}
      </TabPanel>
      <RecentlyDeleted />

      <Dialog open={dialog !== null} title={dialog ? dialogTitle[dialog.kind] : ""} onClose={close} wide>
        {dialog?.kind === "create-chapter" && <ChapterForm level={dialog.level} onDone={close} />}
        {dialog?.kind === "edit-chapter" && <ChapterForm chapter={dialog.chapter} onDone={close} />}
        {dialog?.kind === "add-subsection" && <SubsectionForm chapter={dialog.chapter} defaultOrder={dialog.order} onDone={close} />}
        {dialog?.kind === "edit-subsection" && <SubsectionForm chapter={dialog.chapter} subsection={dialog.subsection} onDone={close} />}
      </Dialog>
      <ConfirmDialog confirmation={confirmation} onClose={() => setConfirmation(null)} />
    </div>
  );
}
