/**
 * The chapter shell's tokens (src/pages/chapter-shell.astro renders ChapterView with them;
 * src/server/pages/chapter-page.ts swaps each for the real chapter's value on every request).
 * Pure values, so the build's own code (the critical CSS, src/styles/critical-css.ts) can find the
 * shell's body without the server's modules.
 */
import { renderChapterBody, renderChapterPager } from "./chapter-body.ts";

export const SHELL_PATH = "/chapter-shell";
export const SHELL_CHAPTER = {
  id: 0,
  slug: "chapter-shell-slug",
  title: "ChapterShellTitle",
  level: "ChapterShellLevel",
  order: 0,
  readingTime: 987654321,
  content: "ChapterShellBody",
  subsections: [],
} as const;
export const SHELL_DESCRIPTION = "ChapterShellDescription";
export const SHELL_TRANSFORM_HREF = "/chapter-shell-transform";
export const SHELL_PREVIOUS = { slug: "chapter-shell-previous", title: "ChapterShellPrevious" };
export const SHELL_NEXT = { slug: "chapter-shell-next", title: "ChapterShellNext" };

let placeholders: { shellBody: string; shellPager: string } | undefined;

/** The body and pager the shell was built with: the same for every request, so rendered once. */
export function shellPlaceholders(): { shellBody: string; shellPager: string } {
  placeholders ??= {
    shellBody: renderChapterBody(SHELL_CHAPTER, { transformHref: SHELL_TRANSFORM_HREF }),
    shellPager: renderChapterPager(SHELL_PREVIOUS, SHELL_NEXT),
  };
  return placeholders;
}
