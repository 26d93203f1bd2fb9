/**
 * The admin panel's content: every live chapter, the subsections of the chapters opened in the
 * panel (always fetched fresh), and the recently deleted chapters and subsections. Each action
 * calls the admin API, shows the SPEC.md section 8 toast and refreshes the affected lists.
 *
 * Subsection deletion and both reorders are applied at once; a refused delete is rolled back,
 * a refused reorder reloads the list (SPEC.md section 4).
 */
import { atom } from "nanostores";
import { ApiError, apiRequest, errorMessage } from "../lib/api-client.ts";
import type { Level } from "../lib/levels.ts";
import { levelOf } from "../lib/levels.ts";
import { formatMoment } from "../lib/dates.ts";
import { notify } from "../lib/notify.ts";
import {
  isSignedOutError,
  type AdminChapter,
  type AdminSubsection,
  type ChapterPayload,
  type DeletedChapter,
  type DeletedSubsection,
  type ItemKind,
  type Revision,
  type SaveOptions,
  type SubsectionPayload,
} from "./admin-api.ts";
import { $publish, exposedWithdrawals, refreshPublish, SEARCH_FILES_TOAST } from "./admin-publish.ts";
import { sessionEnded } from "./admin-session.ts";

export const $chapters = atom<AdminChapter[]>([]);
export const $chaptersError = atom<string | null>(null);
export const $deletedChapters = atom<DeletedChapter[]>([]);
export const $deletedSubsections = atom<DeletedSubsection[]>([]);
/** Why the Recently Deleted Items could not be loaded, or null. */
export const $deletedError = atom<string | null>(null);
/** Why a chapter's subsections could not be loaded, by chapter id (absent when they loaded). */
export const $subsectionsError = atom<Record<number, string | undefined>>({});
/** Subsections by chapter id, for the chapters whose cards have been opened. */
export const $subsections = atom<Record<number, AdminSubsection[] | undefined>>({});

/** The last success toast, which afterChange may add to. */
let lastSuccess: { id: string; description: string } | undefined;
const success = (description: string) => void (lastSuccess = { id: notify({ title: "Success", description }), description });

/** Shows a failed mutation's toast, or the sign-in form when the session ended. */
function failure(error: unknown, description: string): void {
  if (isSignedOutError(error)) return sessionEnded();
  notify({ title: "Error", description, variant: "destructive" });
}

/**
 * How a form's save went: done, or refused. `slugProblem` is the server's sentence when the slug
 * is taken (409 slug_taken): the form shows it beside the Slug field.
 */
export type SaveResult = { ok: true } | { ok: false; slugProblem?: string };

function refused(error: unknown): SaveResult {
  return error instanceof ApiError && error.code === "slug_taken" ? { ok: false, slugProblem: error.text } : { ok: false };
}

/** A saved item as the save answers it: its status and the time its draft is scheduled for. */
interface SavedState {
  status?: "published" | "draft";
  publishAt?: string | null;
}

/**
 * The toast of a save as a draft (issue 22; the spec's "... successfully" toasts are for saves
 * that go live): what readers see now, and when the draft goes live if it is scheduled.
 */
export function draftSavedMessage(kind: ItemKind, saved: SavedState): string {
  const noun = kind === "chapter" ? "chapter" : "subsection";
  const at = saved.publishAt ? formatMoment(new Date(saved.publishAt)) : null;
  if (saved.status === "draft") {
    const item = kind === "chapter" ? "Chapter" : "Subsection";
    return at ? `${item} saved as a draft: it will be published at ${at}` : `${item} saved as a draft: readers do not see it until you publish it`;
  }
  return at
    ? `Draft saved: it will be published at ${at}; until then readers see the published ${noun}`
    : `Draft saved: readers see the published ${noun} until you publish the draft`;
}

/** Where the `transform` call to action leads, as a preview shows it: the first Operator chapter. */
export function transformHref(): string {
  const first = $chapters
    .get()
    .filter((chapter) => levelOf(chapter.level) === "Operator")
    .sort((a, b) => a.order - b.order || a.id - b.id)[0];
  return first ? `/${first.slug}` : "/";
}

/** The number a subsection at `order` shows in its chapter (the page numbers them by order, then id). */
export function subsectionNumber(chapterId: number, id: number | undefined, order: number): number {
  const others = ($subsections.get()[chapterId] ?? []).filter((part) => part.id !== id);
  return others.filter((part) => part.order < order || (part.order === order && id !== undefined && part.id < id)).length + 1;
}

/** A level's chapters in their order. */
export function chaptersOf(chapters: AdminChapter[], level: Level): AdminChapter[] {
  return chapters.filter((c) => levelOf(c.level) === level).sort((a, b) => a.order - b.order || a.id - b.id);
}

export async function loadChapters(): Promise<void> {
  try {
    $chapters.set(await apiRequest<AdminChapter[]>("GET", "/api/admin/chapters"));
    $chaptersError.set(null);
  } catch (error) {
    if (isSignedOutError(error)) return sessionEnded();
    $chaptersError.set(errorMessage(error));
  }
}

export async function loadDeleted(): Promise<void> {
  try {
    const [chapters, subsections] = await Promise.all([
      apiRequest<DeletedChapter[]>("GET", "/api/admin/chapters/deleted/recent"),
      apiRequest<DeletedSubsection[]>("GET", "/api/admin/subsections/deleted/recent"),
    ]);
    $deletedChapters.set(chapters);
    $deletedSubsections.set(subsections);
    $deletedError.set(null);
  } catch (error) {
    if (isSignedOutError(error)) return sessionEnded();
    $deletedError.set(errorMessage(error));
  }
}

export async function loadSubsections(chapterId: number): Promise<void> {
  try {
    // The admin's own list (issue 14: drafts too), never cached (SPEC.md section 7: always fetched fresh).
    const list = await apiRequest<AdminSubsection[]>("GET", `/api/admin/chapters/${chapterId}/subsections`);
    $subsections.set({ ...$subsections.get(), [chapterId]: [...list].sort((a, b) => a.order - b.order) });
    $subsectionsError.set({ ...$subsectionsError.get(), [chapterId]: undefined });
  } catch (error) {
    if (isSignedOutError(error)) return sessionEnded();
    $subsectionsError.set({ ...$subsectionsError.get(), [chapterId]: errorMessage(error) });
  }
}

function setSubsections(chapterId: number, list: AdminSubsection[]): void {
  $subsections.set({ ...$subsections.get(), [chapterId]: list });
}

/**
 * After a change: the chapter list, the deleted items and what the public site shows. When the
 * change withdrew open text that now stays public in the search files (no build is coming, or the
 * last one failed), its toast says so.
 */
async function afterChange(...chapterIds: number[]): Promise<void> {
  const opened = $subsections.get();
  const exposedBefore = exposedWithdrawals($publish.get());
  const toast = lastSuccess;
  await Promise.all([
    loadChapters(),
    loadDeleted(),
    refreshPublish(),
    ...chapterIds.filter((id) => opened[id] !== undefined).map((id) => loadSubsections(id)),
  ]);
  if (toast && exposedWithdrawals($publish.get()) > exposedBefore) {
    notify({ title: "Success", description: `${toast.description.replace(/\.$/, "")}. ${SEARCH_FILES_TOAST}` }, toast.id);
  }
}

export async function createChapter(payload: ChapterPayload, options: SaveOptions = {}): Promise<SaveResult> {
  try {
    const saved = await apiRequest<SavedState>("POST", "/api/admin/chapters", { ...payload, ...options });
    success(options.draft ? draftSavedMessage("chapter", saved) : "Chapter created successfully");
    await afterChange();
    return { ok: true };
  } catch (error) {
    failure(error, `Failed to create chapter: ${errorMessage(error)}`);
    return refused(error);
  }
}

export async function updateChapter(id: number, payload: ChapterPayload, options: SaveOptions = {}): Promise<SaveResult> {
  try {
    const saved = await apiRequest<SavedState>("PUT", `/api/admin/chapters/${id}`, { ...payload, ...options });
    success(options.draft ? draftSavedMessage("chapter", saved) : "Chapter updated successfully");
    await afterChange();
    return { ok: true };
  } catch (error) {
    failure(error, `Failed to update chapter: ${errorMessage(error)}`);
    return refused(error);
  }
}

export async function deleteChapter(id: number): Promise<boolean> {
  try {
    await apiRequest("DELETE", `/api/admin/chapters/${id}`);
    success("Chapter deleted successfully");
    const opened = { ...$subsections.get() };
    delete opened[id];
    $subsections.set(opened);
    await afterChange();
    return true;
  } catch (error) {
    failure(error, `Failed to delete chapter: ${errorMessage(error)}`);
    return false;
  }
}

export async function restoreChapter(id: number): Promise<void> {
  try {
    await apiRequest("PUT", `/api/admin/chapters/${id}/restore`);
    success("Chapter restored successfully");
    await afterChange(id);
  } catch (error) {
    failure(error, `Failed to restore chapter: ${errorMessage(error)}`);
  }
}

/**
 * Moves a level's chapters into `orderedIds` at once, then asks the server. A refusal reloads
 * the list, so the panel shows what is stored.
 */
export async function reorderChapters(orderedIds: number[]): Promise<void> {
  // The server numbers a reordered level 1..n.
  const position = new Map(orderedIds.map((id, index) => [id, index + 1]));
  $chapters.set(
    $chapters.get().map((c) => (position.has(c.id) ? { ...c, order: position.get(c.id)! } : c)),
  );
  try {
    await apiRequest("PUT", "/api/admin/chapters/reorder", { chapterIds: orderedIds });
    success("Chapters reordered successfully");
    await afterChange();
  } catch (error) {
    failure(error, `Failed to reorder chapters: ${errorMessage(error)}`);
    await loadChapters();
  }
}

/** Creates a subsection; a slug taken in the chapter gets the spec's own explanation. */
export async function createSubsection(payload: SubsectionPayload, options: SaveOptions = {}): Promise<SaveResult> {
  try {
    const saved = await apiRequest<SavedState>("POST", "/api/admin/subsections", { ...payload, ...options });
    success(options.draft ? draftSavedMessage("subsection", saved) : "Subsection created successfully");
    await afterChange(payload.chapterId);
    return { ok: true };
  } catch (error) {
    const message = errorMessage(error);
    const description = message.includes("duplicate slug")
      ? "A subsection with this slug already exists in this chapter. Please use a different slug."
      : message || "Failed to create subsection";
    failure(error, description);
    return refused(error);
  }
}

export async function updateSubsection(id: number, payload: SubsectionPayload, options: SaveOptions = {}): Promise<SaveResult> {
  try {
    const saved = await apiRequest<SavedState>("PUT", `/api/admin/subsections/${id}`, { ...payload, ...options });
    success(options.draft ? draftSavedMessage("subsection", saved) : "Subsection updated successfully");
    await afterChange(payload.chapterId);
    return { ok: true };
  } catch (error) {
    failure(error, "Failed to update subsection");
    return refused(error);
  }
}

/** Removes the subsection from the list at once; puts it back if the server refuses. */
export async function deleteSubsection(subsection: AdminSubsection): Promise<void> {
  const before = $subsections.get()[subsection.chapterId] ?? [];
  setSubsections(
    subsection.chapterId,
    before.filter((s) => s.id !== subsection.id),
  );
  try {
    await apiRequest("DELETE", `/api/admin/subsections/${subsection.id}`);
    success("Subsection deleted successfully");
    await afterChange(subsection.chapterId);
  } catch (error) {
    setSubsections(subsection.chapterId, before);
    failure(error, "Failed to delete subsection");
  }
}

export async function restoreSubsection(id: number): Promise<void> {
  try {
    const restored = await apiRequest<AdminSubsection>("PUT", `/api/admin/subsections/${id}/restore`);
    success("Subsection restored successfully");
    await afterChange(restored.chapterId);
  } catch (error) {
    failure(error, `Failed to restore subsection: ${errorMessage(error)}`);
  }
}

/** Moves a chapter's subsections into `orderedIds` at once; a refusal reloads the list. */
export async function reorderSubsections(chapterId: number, orderedIds: number[]): Promise<void> {
  const current = $subsections.get()[chapterId] ?? [];
  const byId = new Map(current.map((s) => [s.id, s]));
  setSubsections(
    chapterId,
    orderedIds.flatMap((id, index) => {
      const subsection = byId.get(id);
      return subsection ? [{ ...subsection, order: index }] : [];
    }),
  );
  try {
    await apiRequest("PUT", "/api/admin/subsections/reorder", { subsectionIds: orderedIds, chapterId });
    success("Subsection reordered successfully");
    await afterChange(chapterId);
  } catch (error) {
    failure(error, "Failed to reorder subsections");
    await loadSubsections(chapterId);
  }
}

const path = (kind: ItemKind, id: number) => `/api/admin/${kind === "chapter" ? "chapters" : "subsections"}/${id}`;

/** Publishes a draft item or a pending draft now (issue 14). */
export async function publishDraft(kind: ItemKind, id: number, chapterId: number): Promise<boolean> {
  try {
    await apiRequest("POST", `${path(kind, id)}/publish`);
    success(kind === "chapter" ? "Chapter published" : "Subsection published");
    await afterChange(chapterId);
    return true;
  } catch (error) {
    failure(error, `Failed to publish: ${errorMessage(error)}`);
    return false;
  }
}

/** Drops a pending draft; the published text stays. */
export async function discardDraft(kind: ItemKind, id: number, chapterId: number): Promise<boolean> {
  try {
    await apiRequest("DELETE", `${path(kind, id)}/draft`);
    success("Draft discarded");
    await afterChange(chapterId);
    return true;
  } catch (error) {
    failure(error, `Failed to discard the draft: ${errorMessage(error)}`);
    return false;
  }
}

/** An item's kept versions, newest first; null when they could not be loaded. */
export async function loadRevisions(kind: ItemKind, id: number): Promise<Revision[] | null> {
  try {
    return await apiRequest<Revision[]>("GET", `${path(kind, id)}/revisions`);
  } catch (error) {
    if (isSignedOutError(error)) sessionEnded();
    return null;
  }
}

/** Writes a kept version back (a new save, published as an edit is). */
export async function restoreRevision(revision: Revision, chapterId: number): Promise<boolean> {
  try {
    await apiRequest("POST", `/api/admin/revisions/${revision.id}/restore`);
    success("Version restored");
    await afterChange(chapterId);
    return true;
  } catch (error) {
    failure(error, `Failed to restore the version: ${errorMessage(error)}`);
    return false;
  }
}
