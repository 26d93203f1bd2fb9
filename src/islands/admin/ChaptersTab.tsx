/**
 * The Chapters tab (SPEC.md section 2): sub-tabs Operator, Architect and Mastermind with counts;
 * the chosen level's chapters in order, reorderable by drag or keyboard; the four dialogs; the
 * delete confirmations; and the Recently Deleted Items card.
 */
import { readersPosition } from "../../lib/chapter-number.ts";
import { useStore } from "@nanostores/react";
import { useId, useState, type KeyboardEvent } from "react";
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
  const list = chaptersOf(chapters, level);

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

  const close = () => setDialog(null);
  return (
    <div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Tabs
          label="Chapter levels"
          idPrefix="level"
          size="small"
          selected={level}
          onSelect={setLevel}
          items={LEVELS.map((l) => ({ id: l, label: `${l} (${chaptersOf(chapters, l).length})` }))}
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
              {list.map((chapter, index) => (
                <ChapterCard
                  key={chapter.id}
                  chapter={chapter}
                  position={readersPosition(list, chapter)}
                  hintId={hintId}
                  onKeyDown={(event: KeyboardEvent) => {
                    const to = keyboardTarget(event, index, list.length);
                    if (to === null) return;
                    event.preventDefault();
                    move(index, to, true);
                  }}
                  onAddSubsection={(c) => void openAddSubsection(c)}
                  onEdit={(c) => setDialog({ kind: "edit-chapter", chapter: c })}
                  onDelete={askDeleteChapter}
                  onEditSubsection={(c, subsection) => setDialog({ kind: "edit-subsection", chapter: c, subsection })}
                  onDeleteSubsection={askDeleteSubsection}
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
