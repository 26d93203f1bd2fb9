/**
 * Preview (issue 22: 4): the text of the Edit and Add dialogs as readers will see it, rendered by
 * the reader's own renderer (src/lib/chapter-body.ts) in the site's styles, in the theme in
 * force. Loaded when first asked for (it brings the Markdown renderer); its links do not leave
 * the panel.
 */
import type { MouseEvent } from "react";
import { CHAPTER_TITLE_CLASS, renderChapterBody, renderSubsection } from "../../lib/chapter-body.ts";
import { escapeHtml } from "../../lib/html.ts";

export type PreviewOf =
  | { kind: "chapter"; title: string; level: string; readingTime: number; content: string }
  | { kind: "subsection"; title: string; slug: string; content: string; photo: string; photoAlt: string; number: number };

interface Props {
  of: PreviewOf;
  /** Where the `transform` call to action leads: the first Operator chapter. */
  transformHref: string;
}

function previewHtml(of: PreviewOf, transformHref: string): string {
  const options = { transformHref };
  if (of.kind === "subsection") {
    return renderSubsection({ ...of, slug: of.slug || "preview", photo: of.photo || null, photoAlt: of.photoAlt || null }, of.number, options);
  }
  return (
    `<header><p class="text-xs tracking-widest text-[var(--color-muted)] uppercase">${escapeHtml(of.level)} · ${of.readingTime} min read</p>` +
    `<h1 class="${CHAPTER_TITLE_CLASS}">${escapeHtml(of.title)}</h1></header>` +
    `<div class="pt-10">${renderChapterBody({ content: of.content, subsections: [] }, options)}</div>`
  );
}

/** A link in the preview shows where it leads, but a click stays in the dialog. */
function stayInPanel(event: MouseEvent) {
  if ((event.target as Element).closest("a")) event.preventDefault();
}

export default function ContentPreview({ of, transformHref }: Props) {
  return (
    <div
      role="region"
      aria-label="Preview"
      data-testid="content-preview"
      className="mt-1 max-h-[60vh] [&>section]:mt-0 overflow-auto rounded-md border border-[var(--color-line)] bg-[var(--color-page)] px-4 py-6 text-[var(--color-ink)] sm:px-8"
      onClickCapture={stayInPanel}
      dangerouslySetInnerHTML={{ __html: previewHtml(of, transformHref) }}
    />
  );
}
