/**
 * The chapter shell's tokens (src/pages/chapter-shell.astro renders ChapterView with them;
 * src/server/pages/chapter-page.ts swaps each for the real chapter's value on every request).
 * Pure values, so the build's own code (the critical CSS, src/styles/critical-css.ts) can find the
 * shell's body without the server's modules.
 */
import { renderChapterBody, renderChapterPager } from "./chapter-body.ts";
import { drawerItems, railItems } from "./chapter-lists.ts";

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

interface Placeholders {
  shellBody: string;
  shellPager: string;
  /** The rail's and the drawer's items: the shell's own chapter, current (so the critical CSS keeps their rules). */
  shellRail: string;
  shellDrawer: string;
}
let placeholders: Placeholders | undefined;

/** The body, pager and chapter lists the shell was built with: the same for every request, so rendered once. */
export function shellPlaceholders(): Placeholders {
  placeholders ??= {
    shellBody: renderChapterBody(SHELL_CHAPTER, { transformHref: SHELL_TRANSFORM_HREF }),
    shellPager: renderChapterPager(SHELL_PREVIOUS, SHELL_NEXT),
    shellRail: railItems([SHELL_CHAPTER], SHELL_CHAPTER.slug),
    shellDrawer: drawerItems([SHELL_CHAPTER], SHELL_CHAPTER.slug),
  };
  return placeholders;
}
