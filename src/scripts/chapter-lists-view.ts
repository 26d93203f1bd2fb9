/**
 * The rail's and the drawer's items (issue 45: 1), a file of its own that the page script
 * (src/scripts/page.ts) loads the first time a page has a chapter list to show: this tab's copy of
 * the shared list, a member's page's own fetch, or the Navigator island's word (SHOW_CHAPTERS).
 * A reader who only reads a chapter never loads it: the page's first response holds the chapters
 * near its own, and what the page runs before a touch stays within 5 KB.
 *
 * It shows the list the page script last kept (`chapterLists` on <html>), then each one sent after.
 */
import { drawerItems, railItems } from "../lib/chapter-lists.ts";
import { DRAWER_LIST_ID, RAIL_LIST_ID, SHOW_CHAPTERS } from "../lib/page-signals.ts";
import type { ChapterLists } from "./page.ts";

/**
 * Puts `html` in as the items of list `id`, unless it holds them already (the same elements). What the reader sees
 * stays where it was: the current chapter's link at the same height (the rail of a first response
 * holds the chapters near it, and the whole list comes above and below it), and the focus on the
 * link it was on.
 */
function fill(id: string, html: string): void {
  const list = document.getElementById(id) as (HTMLElement & { shown?: string }) | null;
  if (!list || list.shown === html) return;
  list.shown = html;
  // (Items the page holds already, as the first response of a short level does, stay as they are.)
  const items = document.createElement("template");
  items.innerHTML = html;
  if (items.innerHTML === list.innerHTML) return;
  const top = list.querySelector('[aria-current="page"]')?.getBoundingClientRect().top;
  const focused = list.contains(document.activeElement) ? document.activeElement!.getAttribute("href") : null;
  list.replaceChildren(items.content);
  const moved = list.querySelector('[aria-current="page"]')?.getBoundingClientRect().top;
  if (top !== undefined && moved !== undefined) list.scrollTop += moved - top;
  if (focused) list.querySelector<HTMLElement>(`a[href="${focused}"]`)?.focus({ preventScroll: true });
}

function show(lists: ChapterLists | undefined): void {
  if (!lists) return;
  fill(RAIL_LIST_ID, railItems(lists.chapters, lists.current));
  fill(DRAWER_LIST_ID, drawerItems(lists.chapters, lists.current));
}

show((document.documentElement as HTMLElement & { chapterLists?: ChapterLists }).chapterLists);
addEventListener(SHOW_CHAPTERS, (event) => show((event as CustomEvent<ChapterLists>).detail));
