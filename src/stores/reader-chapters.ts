/**
 * The reader's chapter list (SPEC.md sections 2, 4 and 9): GET /api/chapters, cached for 15
 * minutes in sessionStorage, filtered to the selected level and to what the reader may access.
 *
 * A page carries no chapter list of its own (issue 45: 1): a chapter page's first response holds
 * the chapters near its own, and the page script shows the whole list (src/scripts/page.ts) from
 * this same cache, which it may have filled already. (Previous/Next are rendered by the server
 * within the chapter's level: src/lib/chapter-body.ts.)
 * The current chapter is a store too: static pages set it from `data-chapter-slug`, and a reader
 * that fetches a chapter at run time calls `setCurrentChapter(slug)`.
 */
import { atom, computed } from "nanostores";
import { apiRequest } from "../lib/api-client.ts";
import { chaptersFor, type ChapterEntry } from "../lib/level-chapters.ts";
import { CHAPTER_LIST_KEY, CHAPTER_LIST_TTL_MS } from "../lib/storage-keys.ts";
import { $auth, restoreAuth } from "./auth.ts";
import { $selectedLevel, restoreSelectedLevel } from "./selected-level.ts";

export { chaptersFor, type ChapterEntry };

export interface ChapterListState {
  status: "loading" | "ready" | "error";
  chapters: ChapterEntry[];
  /** The "{status}: {body}" message of a failed load. */
  error?: string;
}

export const $chapterList = atom<ChapterListState>({ status: "loading", chapters: [] });
export const $currentChapter = atom<string | null>(null);

/** The selected level's chapters, as the rail and the drawer show them. */
export const $levelChapters = computed([$chapterList, $selectedLevel, $auth], (list, level, auth) =>
  chaptersFor(list.chapters, level, auth.isAuthenticated ? auth.accessLevel : null),
);

export function setCurrentChapter(slug: string | null): void {
  $currentChapter.set(slug);
}

function readCache(): ChapterEntry[] | null {
  try {
    const raw = sessionStorage.getItem(CHAPTER_LIST_KEY);
    if (!raw) return null;
    const cached = JSON.parse(raw) as { at?: number; chapters?: ChapterEntry[] };
    if (typeof cached.at === "number" && Array.isArray(cached.chapters) && Date.now() - cached.at < CHAPTER_LIST_TTL_MS) {
      return cached.chapters;
    }
  } catch {
    // unreadable cache: fetch again
  }
  return null;
}

function writeCache(chapters: ChapterEntry[]): void {
  try {
    sessionStorage.setItem(CHAPTER_LIST_KEY, JSON.stringify({ at: Date.now(), chapters }));
  } catch {
    // storage unavailable
  }
}

let loading: Promise<ChapterListState> | undefined;

/** Loads the list once per page (cache first). A failure keeps any seeded list on screen. */
export function loadChapterList(): Promise<ChapterListState> {
  loading ??= (async () => {
    const cached = readCache();
    if (cached) {
      $chapterList.set({ status: "ready", chapters: cached });
      return $chapterList.get();
    }
    try {
      const fresh = await apiRequest<ChapterEntry[]>("GET", "/api/chapters");
      const chapters = fresh.map(({ id, slug, title, level, order, teaser }) => ({ id, slug, title, level, order, ...(teaser ? { teaser } : {}) }));
      writeCache(chapters);
      $chapterList.set({ status: "ready", chapters });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      $chapterList.set({ status: "error", chapters: $chapterList.get().chapters, error: message });
    }
    return $chapterList.get();
  })();
  return loading;
}

let started: Promise<ChapterListState> | undefined;

/**
 * Starts the reader once per page: auth and the selected level from storage, then the list.
 * Resolves when both the server's view of the session and the list are known.
 */
export function startReader(): Promise<ChapterListState> {
  started ??= (async () => {
    // The level from the stored sign-in at once (storage keeps one it does not reach), decided once the server has answered.
    const auth = restoreAuth().then(() => restoreSelectedLevel());
    restoreSelectedLevel(false);
    const slug = document.querySelector<HTMLElement>("[data-chapter-slug]")?.dataset.chapterSlug;
    if (slug && $currentChapter.get() === null) setCurrentChapter(slug);
    // Once the server has had its say about the session, the level store has reconciled too.
    const [, list] = await Promise.all([auth, loadChapterList()]);
    return list;
  })();
  return started;
}
