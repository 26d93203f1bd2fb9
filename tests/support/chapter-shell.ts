/**
 * A chapter shell as small as a chapter page needs (the real one is built by Astro:
 * src/pages/chapter-shell.astro): html, a head with noindex, and every placeholder the chapter page
 * function fills (the body, the pager, the rail's and the drawer's items, "On this page").
 */
import { SHELL_CHAPTER, shellPlaceholders } from "../../src/lib/chapter-shell.ts";
import { ON_THIS_PAGE_SHELL } from "../../src/lib/page-signals.ts";

export function minimalShell(): string {
  const { shellBody, shellPager, shellRail, shellDrawer } = shellPlaceholders();
  return (
    `<!doctype html><html lang="en"><head><meta name="robots" content="noindex, nofollow"><title>${SHELL_CHAPTER.title} · The System</title></head>` +
    `<body><ol>${shellRail}</ol><h1>${SHELL_CHAPTER.title}</h1><ol>${shellDrawer}</ol><ol>${ON_THIS_PAGE_SHELL}</ol>${shellBody}${shellPager}</body></html>`
  );
}
