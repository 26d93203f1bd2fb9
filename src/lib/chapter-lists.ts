/**
 * The rail's and the drawer's chapter links (SPEC.md section 2), as HTML: one renderer for the
 * chapter page function (the chapters near the one on the page, in its first response) and for
 * the page script (the level's whole list, from the one shared list every page reads:
 * GET /api/chapters, cached). Issue 45: 1: a page's first response holds a fixed number of
 * chapters, never the whole book, so it does not grow as the book does.
 *
 * Import-free: the page script ships it, and no island imports it (so it does not become a chunk
 * of its own that the page script would wait for).
 */

/** What a link shows of a chapter. */
export interface ListedChapter {
  slug: string;
  title: string;
}

/** Chapters on each side of the current one that a first response carries (rail and drawer). */
export const NEARBY = 5;

/** The rail's numbering (SPEC.md: 00, 01, ...), from a chapter's 0-based place in its level. */
export const railNumber = (index: number): string => String(index).padStart(2, "0");

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
const current = (chapter: ListedChapter, slug: string | null) => (chapter.slug === slug ? ' aria-current="page"' : "");

/**
 * The stretch of `list` a first response carries around `slug`: 2 x NEARBY + 1 chapters (all of a
 * shorter list), the current one as near the middle as the ends allow; `from` is its first
 * chapter's place in the list.
 */
export function nearby<T extends ListedChapter>(list: readonly T[], slug: string, span = NEARBY): { from: number; chapters: T[] } {
  const at = Math.max(0, list.findIndex((c) => c.slug === slug));
  const from = Math.max(0, Math.min(at - span, list.length - (2 * span + 1)));
  return { from, chapters: list.slice(from, from + 2 * span + 1) };
}

/** The drawer's list on a page that carries none, until the page script puts the level's in. */
export const DRAWER_LOADING = `<li class="drawer-note" role="status">Loading the chapters...</li>`;

/** The rail's items: each chapter's number, its title said by its label and shown by its tooltip. */
export function railItems(chapters: readonly ListedChapter[], slug: string | null, from = 0): string {
  return chapters
    .map((c, i) => {
      const n = railNumber(from + i);
      const title = escape(c.title);
      // The visible number first (WCAG 2.5.3), then what it stands for.
      return `<li><a href="/${c.slug}" aria-label="${n} ${title}" data-title="${title}" class="rail-link"${current(c, slug)}>${n}</a></li>`;
    })
    .join("");
}

/** The drawer's items: number and title; "No chapters available" for an empty level (SPEC.md section 9). */
export function drawerItems(chapters: readonly ListedChapter[], slug: string | null, from = 0): string {
  if (chapters.length === 0) return `<li class="drawer-note">No chapters available</li>`;
  return chapters
    .map((c, i) => `<li><a href="/${c.slug}" class="drawer-link"${current(c, slug)}><span>${railNumber(from + i)}</span><span>${escape(c.title)}</span></a></li>`)
    .join("");
}
