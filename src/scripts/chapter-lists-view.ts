/**
 * The rail's and the drawer's items (issue 45: 1), a file of its own that the page script
 * (src/scripts/page.ts) loads the first time a page has a chapter list to show: this tab's copy of
 * the shared list, a member's page's own fetch, or the Navigator island's word (SHOW_CHAPTERS).
 * A reader who only reads a chapter never loads it: the page's first response holds the chapters
 * near its own, and what the page runs before a touch stays within 5 KB.
 *
 * It shows the list the page script last kept (`chapterLists` on <html>), then each one sent after.
 * A list the reader sees (the open drawer's, the rail beside the text) is put in at once; one that
 * is not drawn (the rail on a phone, the closed drawer) once the browser is idle, so that the list
 * in sight is painted first (issue 45: 2: a level of 1,000 chapters is 2,000 links in each).
 */
import { drawerItems, railItems } from "../lib/chapter-lists.ts";
import { DRAWER_LIST_ID, RAIL_LIST_ID, SHOW_CHAPTERS } from "../lib/page-signals.ts";
import type { ChapterLists } from "./page.ts";

type List = HTMLElement & { shown?: string };

/**
 * Puts `html` in as the items of `list`, unless it holds them already. What the reader sees
 * stays where it was: the current chapter's link at the same height (the rail of a first response
 * holds the chapters near it, and the whole list comes above and below it), and the focus on the
 * link it was on.
 */
function fill(list: List, html: string): void {
  if (list.shown === html) return;
  list.shown = html;
  const items = document.createElement("template");
  items.innerHTML = html;
  // Items the page holds already, as the first response of a short level does, stay as they are.
  // (Compared only when there are as many: writing out a long list's markup costs a phone dearly.)
  if (items.content.childElementCount === list.childElementCount && items.innerHTML === list.innerHTML) return;
  const top = list.querySelector('[aria-current="page"]')?.getBoundingClientRect().top;
  const focused = list.contains(document.activeElement) ? document.activeElement!.getAttribute("href") : null;
  list.replaceChildren(items.content);
  const moved = list.querySelector('[aria-current="page"]')?.getBoundingClientRect().top;
  if (top !== undefined && moved !== undefined) list.scrollTop += moved - top;
  if (focused) list.querySelector<HTMLElement>(`a[href="${focused}"]`)?.focus({ preventScroll: true });
}

/** Whether the reader can see `list` now: the drawer's while it is open, the rail's where it is drawn. */
const inSight = (list: HTMLElement) => list.closest<HTMLDialogElement>("dialog")?.open ?? list.getClientRects().length > 0;

/** The lists waiting for an idle moment, each with the items it is to show. */
const waiting = new Map<List, string>();
const idle = (work: () => void) => ("requestIdleCallback" in window ? requestIdleCallback(work, { timeout: 1000 }) : setTimeout(work, 50));

function show(lists: ChapterLists | undefined): void {
  if (!lists) return;
  const schedule = !waiting.size;
  for (const [id, items] of [
    [DRAWER_LIST_ID, drawerItems],
    [RAIL_LIST_ID, railItems],
  ] as const) {
    const list = document.getElementById(id) as List | null;
    if (!list) continue;
    const html = items(lists.chapters, lists.current);
    if (inSight(list)) {
      waiting.delete(list);
      fill(list, html);
    } else {
      waiting.set(list, html);
    }
  }
  if (schedule && waiting.size)
    idle(() => {
      for (const [list, html] of waiting) fill(list, html);
      waiting.clear();
    });
}

show((document.documentElement as HTMLElement & { chapterLists?: ChapterLists }).chapterLists);
addEventListener(SHOW_CHAPTERS, (event) => show((event as CustomEvent<ChapterLists>).detail));
