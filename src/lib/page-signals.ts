/**
 * How the page script (src/scripts/page.ts) and the islands hand work to each other on one page:
 * window events and element ids. Constants only, so the page script's bundle inlines them and
 * shares no module with the islands (astro.config.mjs: inlineConst).
 */

/** Wakes the Toasts island (client:interaction): a notice was raised (src/lib/notify.ts). */
export const WAKE_TOASTS = "wake:toasts";

/** Wakes the scan island (/assessment) without a touch: a scan this tab had must show its own question. */
export const WAKE_SCAN = "wake:scan";

/**
 * Wakes the Notebook island (issue 32): a reader touched a Note (marked `data-wake` with it), or a
 * member's notebook holds notes on this chapter and the page is idle.
 */
export const WAKE_NOTEBOOK = "wake:notebook";

/** The Navigator island's client:interaction name (it wakes when the reader points at it, touches it or tabs into it). */
export const WAKE_NAVIGATOR = "wake:navigator";

/**
 * The page script settled the session (asked the server, when the browser holds a sign-in) and
 * stored the answer (`systemAuth`): the auth store reads it from there rather than asking again. Dispatched on window, and marked on
 * <html> as this attribute for a store that starts later.
 */
export const SESSION_CHECKED = "session-checked";

/**
 * The rail's and the drawer's chapter lists (issue 45: 1). A chapter page's first response holds
 * the chapters near its own (src/lib/chapter-lists.ts `nearby`), other pages none; the page
 * script puts the level's whole list in, from the one shared list (GET /api/chapters, cached),
 * and again whenever the Navigator island sends SHOW_CHAPTERS (`{ chapters, current }`: the
 * selected level's chapters and the current slug), which it does when its list, level or reader
 * changes. The island never renders these items itself.
 */
export const RAIL_LIST_ID = "rail-list";
export const DRAWER_LIST_ID = "drawer-list";
export const SHOW_CHAPTERS = "show-chapters";

/**
 * The page script's address, on `<html>` (src/build/page-script-later.ts): the early script
 * (src/layouts/early-script.ts) imports it once the first paint is presented, rather than the
 * browser running it before that paint.
 */
export const PAGE_SCRIPT_ATTRIBUTE = "data-script";

/**
 * The page's `<template>` of `<link rel="prefetch">`s for its islands' files
 * (src/directives/integration.ts); the page script adds them to <head> once the page has loaded.
 */
export const ISLAND_FILES_ID = "island-files";

/**
 * The page's `<template>` holding the link to the full stylesheet (src/build/critical-css.ts): the
 * page carries its critical CSS inline, and the page script adds the link after the first paint.
 */
export const FULL_SHEET_ID = "full-sheet";

/**
 * Once the full sheet is in, the page script marks <html data-sheet="in"> and sends this event
 * (src/scripts/page.ts): what an island draws only in the browser waits for it on the member's
 * pages (src/islands/auth/shown-whole.ts), since the page's inline CSS holds only the rules of what
 * the built page shows, and the sheet's arrival would restyle it under the reader's eyes.
 */
export const SHEET_IN = "sheet-in";

/**
 * On <html>, `data-face` while the page sets its text in the metric-matched fallback: "later" on a
 * browser that has not loaded the book's face yet (src/layouts/early-script.ts); the page script
 * loads the face after the first paint, for the next page, and marks it "next" once it is in
 * (src/scripts/page.ts). The page that painted in the fallback stays in it (issue 44: 1).
 */
export const FACE_LATER = "later";
export const FACE_NEXT = "next";

/** The book face's family (its @font-face rules: fonts.css and src/styles/book-font.ts; theme.css sets it). */
export const BOOK_FACE = "Source Serif 4 Variable";

/**
 * The chapter drawer's "On this page" list (issue 20: 5): the element whose items the chapter page
 * function fills in. The Navigator island renders it with this placeholder in the chapter shell,
 * and the function puts the chapter's items there (src/server/pages/chapter-page.ts); the island
 * then keeps what the page holds.
 */
export const DRAWER_TOC_ID = "drawer-toc";
export const ON_THIS_PAGE_SHELL = "ChapterShellOnThisPage";

/**
 * The tokens the page-notice page (src/pages/page-notice.astro) is built with; the server swaps
 * each for a notice's own words (src/server/pages/page-notice.ts).
 */
export const PAGE_NOTICE = {
  title: "PageNoticeTitle",
  text: "PageNoticeText",
  href: "/page-notice-link",
  link: "PageNoticeLink",
} as const;
