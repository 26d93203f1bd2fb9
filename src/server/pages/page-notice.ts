/**
 * A notice in the site's own look (issue 22: 12): the built page-notice page with its title, its
 * sentence and one link filled in. Used where a page function cannot show the page asked for (the
 * admin's tier preview, a chapter the server could not render). Without a built site (a function
 * bundled without it) the same words go out on a plain page.
 */
import { escapeHtml } from "../../lib/html.ts";
import { PAGE_NOTICE } from "../../lib/page-signals.ts";
import { fillMarks, mark } from "./marks.ts";
import { sitePage } from "./site-pages.ts";

export const NOTICE_PATH = "/page-notice";

export interface Notice {
  title: string;
  /** The sentence, as HTML (its caller escapes what it quotes). */
  html: string;
  link: { href: string; text: string };
}

export function noticeHtml({ title, html, link }: Notice): string {
  const built = sitePage(NOTICE_PATH);
  const values: Record<string, string> = { title: escapeHtml(title), text: html, href: escapeHtml(link.href), link: escapeHtml(link.text) };
  if (!built) {
    return (
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex, nofollow"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${values.title}</title></head>` +
      `<body><h1>${values.title}</h1><p>${values.text}</p><p><a href="${values.href}">${values.link}</a></p></body></html>`
    );
  }
  const marked = built
    .replaceAll(PAGE_NOTICE.href, mark("href"))
    .replaceAll(PAGE_NOTICE.title, mark("title"))
    .replaceAll(PAGE_NOTICE.text, mark("text"))
    .replaceAll(PAGE_NOTICE.link, mark("link"));
  return fillMarks(marked, values);
}
