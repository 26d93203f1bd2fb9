/**
 * The body of a chapter page: its content, then its subsections by order (two-digit number,
 * title, optional photo of at most 300 px, content). One function for both ways a chapter reaches
 * the reader: prerendered at build time (ChapterView) and rendered by the server at request time
 * (locked chapters, chapters newer than the last build), so both look exactly alike.
 */
import { escapeHtml } from "./html.ts";
import { renderMarkup, type RenderOptions } from "./markup.ts";

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

/** A chapter as a reader page shows it (prerendered from the snapshot, or rendered by the server). */
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

export function twoDigits(n: number): string {
  return String(n).padStart(2, "0");
}

export function renderChapterBody(chapter: ChapterBody, options: RenderOptions): string {
  const parts = [...chapter.subsections].sort((a, b) => a.order - b.order || a.id - b.id);
  const sections = parts.map((part, index) => {
    const number = twoDigits(index + 1);
    const slug = escapeHtml(part.slug);
    const title = escapeHtml(part.title);
    const photo = part.photo
      ? `<img src="${escapeHtml(part.photo)}" alt="${escapeHtml(part.photoAlt ?? "")}" loading="${index === 0 ? "eager" : "lazy"}" decoding="async" class="mt-6 aspect-[16/9] max-h-[300px] w-full rounded-sm object-cover">`
      : "";
    return (
      `<section id="${slug}" data-subsection="${title}" aria-labelledby="${slug}-title" class="mt-20 scroll-mt-28">` +
      `<p class="font-mono text-sm text-[var(--color-accent)]" aria-hidden="true">${number}</p>` +
      `<h2 id="${slug}-title" tabindex="-1" class="mt-2 font-serif text-2xl leading-snug outline-none"><span class="sr-only">${number}. </span>${title}</h2>` +
      photo +
      `<div class="chapter-content mt-6">${renderMarkup(part.content, options)}</div>` +
      `</section>`
    );
  });
  return `<div class="chapter-content">${renderMarkup(chapter.content, options)}</div>${sections.join("")}`;
}
