/**
 * The body of a chapter page: its content, then its subsections by order (two-digit number,
 * title, optional photo of at most 300 px, content). The server renders every chapter page with
 * it, into the Astro-built chapter shell (src/server/pages/chapter-page.ts); ChapterView renders
 * the shell's placeholder with it too, so the server finds exactly what to replace.
 */
import { twoDigits } from "./chapter-number.ts";
import { escapeHtml } from "./html.ts";
import { renderMarkup, type RenderOptions } from "./markup.ts";
import { photoHtml } from "./photo-sizes.ts";
import { WAKE_NOTEBOOK } from "./page-signals.ts";
import { NOTE_MAX_CHARS } from "./notebook/limits.ts";

export interface BodySubsection {
  id: number;
  slug: string;
  title: string;
  content: string;
  photo: string | null;
  photoAlt: string | null;
  order: number;
}

export interface ChapterBody {
  content: string;
  subsections: readonly BodySubsection[];
}

/** A chapter as a reader page shows it. */
export interface BookChapter {
  id: number;
  slug: string;
  title: string;
  level: string | null;
  order: number;
  readingTime: number;
  content: string;
  subsections: BodySubsection[];
}

/** The classes of a chapter's title, on its page and in the panel's preview. */
export const CHAPTER_TITLE_CLASS = "chapter-title mt-1";

export function renderChapterBody(chapter: ChapterBody, options: RenderOptions): string {
  const parts = [...chapter.subsections].sort((a, b) => a.order - b.order || a.id - b.id);
  const sections = parts.map((part, index) => renderSubsection(part, index + 1, options, part.id));
  return `<div class="chapter-content">${renderMarkup(chapter.content, options)}</div>${sections.join("")}`;
}

/**
 * A subsection's Note (issue 32): a disclosure that opens a text box under the passage, with no
 * script (typing works at once); its summary wakes the Notebook island (`data-wake`), which keeps
 * what is typed: in the member's encrypted notebook, or, for a reader not signed in, in this
 * browser only. The island marks a subsection that has a note (`data-has-note`: "written").
 * Beside it, for a member (issue 43: `authed-only`), "Ask about this passage" opens the direct
 * line with the passage named; under a note they wrote, "Send to the operator…" offers its text.
 */
export function renderNote(id: number, title: string): string {
  return (
    `<div class="note-row"><details class="note" data-note="${id}">` +
    `<summary class="note-toggle" data-wake="${WAKE_NOTEBOOK}">Note<span class="note-written"> · written</span><span class="sr-only"> on ${title}</span></summary>` +
    `<label class="note-label" for="note-${id}">Your note on ${title}</label>` +
    `<textarea id="note-${id}" class="note-text" rows="5" maxlength="${NOTE_MAX_CHARS}" autocomplete="off"></textarea>` +
    `<p class="note-status" role="status"></p>` +
    `<a class="note-send authed-only" href="/messages?note=${id}">Send to the operator…<span class="sr-only"> your note on ${title}</span></a>` +
    `</details><a class="note-ask authed-only" href="/messages?passage=${id}">Ask about this passage<span class="sr-only">: ${title}</span></a></div>`
  );
}

/** One subsection as the chapter page shows it, numbered `number`, with its Note when given its id. */
export function renderSubsection(part: Omit<BodySubsection, "id" | "order">, number: number, options: RenderOptions, noteId?: number): string {
  const shown = twoDigits(number);
  const slug = escapeHtml(part.slug);
  const title = escapeHtml(part.title);
  const photo = part.photo ? photoHtml(part.photo, part.photoAlt ?? "", "mt-6 aspect-[16/9] max-h-[300px] w-full rounded-sm object-cover") : "";
  return (
    `<section id="${slug}" data-subsection="${title}" aria-labelledby="${slug}-title" class="mt-20 scroll-mt-16">` +
    `<p class="font-mono text-sm text-[var(--color-accent)]" aria-hidden="true">${shown}</p>` +
    `<h2 id="${slug}-title" tabindex="-1" class="subsection-title mt-2 outline-none"><span class="sr-only">${shown}. </span>${title}</h2>` +
    photo +
    `<div class="chapter-content mt-6">${renderMarkup(part.content, options)}</div>` +
    (noteId === undefined ? "" : renderNote(noteId, title)) +
    `</section>`
  );
}

/**
 * "On this page" (issue 20: 5): the chapter's numbered subsections as list items linking to each,
 * the same numbers and order as the body. The page script marks the one being read
 * (`aria-current="location"`). The chapter page shows it beside the text on wide screens and in
 * the chapter drawer below that; both get these items (src/server/pages/chapter-page.ts).
 */
export function renderOnThisPage(subsections: readonly BodySubsection[]): string {
  const parts = [...subsections].sort((a, b) => a.order - b.order || a.id - b.id);
  return parts
    .map(
      (part, index) =>
        `<li><a href="#${escapeHtml(part.slug)}" class="toc-link"><span>${twoDigits(index + 1)}</span> <span>${escapeHtml(part.title)}</span></a></li>`,
    )
    .join("");
}

/** A chapter a pager link leads to. */
export interface PagerLink {
  slug: string;
  title: string;
}

/**
 * Previous and Next within the chapter's level (SPEC.md section 2), as plain links: they work
 * without JavaScript, and the reader's keys follow them (`rel="prev"` / `rel="next"`).
 */
export function renderChapterPager(previous: PagerLink | undefined, next: PagerLink | undefined): string {
  const link = (target: PagerLink | undefined, rel: "prev" | "next") => {
    if (!target) return "<div></div>";
    const [label, testId, align] = rel === "prev" ? ["Previous", "previous", "text-left"] : ["Next", "next", "text-right"];
    return (
      `<div><a href="/${escapeHtml(target.slug)}" rel="${rel}" class="group block ${align}" data-testid="${testId}">` +
      `<span class="block text-xs tracking-widest text-[var(--color-muted)] uppercase">${label}</span>` +
      `<span class="mt-1 block group-hover:underline">${escapeHtml(target.title)}</span></a></div>`
    );
  };
  return (
    `<nav aria-label="Chapter navigation" class="mt-16 grid grid-cols-2 gap-4 border-t border-[var(--color-line)] pt-8">` +
    `${link(previous, "prev")}${link(next, "next")}</nav>`
  );
}

/** The chapters before and after `slug` in its level's reading order. */
export function neighbours<T extends { slug: string }>(list: readonly T[], slug: string): { previous?: T; next?: T } {
  const index = list.findIndex((c) => c.slug === slug);
  if (index < 0) return {};
  return { previous: list[index - 1], next: list[index + 1] };
}

/** A chapter's meta description: its opening words as plain text, cut at a word near 155 characters. */
export function chapterDescription(content: string): string {
  const text = content
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[#>*_-]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return text.length <= 155 ? text : `${text.slice(0, 155).replace(/\s\S*$/, "")}…`;
}
