/**
 * /{slug}: every chapter page, rendered into the chapter shell (an Astro-built reader page with
 * placeholders, src/pages/chapter-shell.astro) with the same renderer ChapterView uses.
 * - An Operator chapter is the same for everyone: its answer may be cached at the CDN, tagged
 *   with the book's cache tag, and every content change purges it (src/server/publish). A chapter
 *   moved to a locked level or deleted is therefore withdrawn as soon as the admin's save returns.
 * - A locked chapter is rendered only for a reader whose session allows it (never cached); anyone
 *   else is sent to /resume.
 * - A slug that is no chapter gets the reader's missing-chapter view, status 404.
 * - Each page is rendered once per content version and tier, then kept (render-cache.ts): a request
 *   reads the version with the chapter's id and level in one statement, checks the session, and
 *   answers the kept page while nothing changed.
 * (docs/decisions/0007 says why chapter pages are not static files.)
 */
import { chapterDescription, neighbours, renderChapterBody, renderChapterPager, renderOnThisPage } from "../../lib/chapter-body.ts";
import { drawerItems, nearby, railItems } from "../../lib/chapter-lists.ts";
import { SHELL_CHAPTER, SHELL_DESCRIPTION, SHELL_PATH, SHELL_TRANSFORM_HREF, shellPlaceholders } from "../../lib/chapter-shell.ts";
import { ON_THIS_PAGE_SHELL } from "../../lib/page-signals.ts";
import { escapeHtml } from "../../lib/html.ts";
import { canAccess, levelOf, resumeFor, type Level } from "../../lib/levels.ts";
import { SLUG_PATTERN } from "../../lib/slug.ts";
import { requireReadable } from "../access/reader.ts";
import { verifiedSid } from "../auth/session.ts";
import { database, databaseGeneration } from "../db/index.ts";
import { BOOK_CACHE_TAG, cdnCacheHeaders } from "../http/cdn.ts";
import { HttpError, isDatabaseUnavailable } from "../http/errors.ts";
import { getChapterPage, getChapterPageKey, type ChapterPageData } from "../repositories/chapters.ts";
import { fillMarks, mark } from "./marks.ts";
import { noticeHtml } from "./page-notice.ts";
import { RenderCache } from "./render-cache.ts";
import { sitePage, type FunctionPage } from "./site-pages.ts";
import { logFailure } from "../http/log-failure.ts";

// The shell page and the tokens it is built with (src/lib/chapter-shell.ts).
export { SHELL_CHAPTER, SHELL_DESCRIPTION, SHELL_NEXT, SHELL_PATH, SHELL_PREVIOUS, SHELL_TRANSFORM_HREF } from "../../lib/chapter-shell.ts";
const SHELL_ROBOTS = /<meta name="robots" content="noindex, nofollow"\s*\/?>/;
const SHELL_URL = /<meta property="og:url" content="([^"]*)"/;

/**
 * The security headers netlify.toml gives static pages ("/*"): Netlify does not apply them to
 * function responses, so pages rendered here send them themselves. tests/api/security-headers
 * checks that they equal netlify.toml's.
 */
export const PAGE_SECURITY_HEADERS: Record<string, string> = {
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()",
  "Content-Security-Policy":
    "frame-ancestors 'none'; base-uri 'self'; object-src 'none'; form-action 'self'; connect-src 'self'; img-src 'self' data: https:",
  "Strict-Transport-Security": "max-age=31536000; includeSubDomains",
};

const NOT_CACHED = { "cache-control": "private, no-store" };

/**
 * The chapter shell filled with a chapter: the page a reader gets. `canonical`: the shell's
 * noindex becomes the chapter's canonical address (a preview keeps noindex).
 */
export function fillChapterShell(data: ChapterPageData, { canonical }: { canonical: boolean }): string {
  const { chapter, subsections, levelChapters, firstOperatorSlug } = data;
  const level = levelOf(chapter.level);
  const shell = sitePage(SHELL_PATH);
  if (!shell) throw new Error(`The built site has no ${SHELL_PATH} page: rebuild the site.`);
  const options = { transformHref: firstOperatorSlug ? `/${firstOperatorSlug}` : "/" };
  const { shellBody, shellPager, shellRail, shellDrawer } = shellPlaceholders();
  if (!shell.includes(shellBody) || !shell.includes(shellPager) || !shell.includes(shellRail) || !shell.includes(shellDrawer)) {
    throw new Error(`${SHELL_PATH} does not hold the chapter body, pager and list placeholders.`);
  }
  const { previous, next } = neighbours(levelChapters, chapter.slug);
  // The shell's tokens become marks first, and the marks the chapter's text last, in one pass:
  // no text of the chapter is ever searched for a token (a title may say anything).
  const marked = shell
    .replace(shellBody, mark("body"))
    .replace(shellPager, mark("pager"))
    .replace(shellRail, mark("rail"))
    .replace(shellDrawer, mark("drawer"))
    // The shell is noindex; a chapter page carries its canonical address instead (og:url's).
    .replace(SHELL_ROBOTS, (robots) => (canonical ? `<link rel="canonical" href="${SHELL_URL.exec(shell)?.[1] ?? SHELL_PATH}">` : robots))
    .replaceAll(SHELL_DESCRIPTION, mark("description"))
    .replaceAll(SHELL_CHAPTER.slug, mark("slug"))
    .replaceAll(SHELL_CHAPTER.title, mark("title"))
    .replaceAll(SHELL_CHAPTER.level, level)
    .replaceAll(String(SHELL_CHAPTER.readingTime), String(chapter.readingTime))
    .replaceAll(SHELL_TRANSFORM_HREF, mark("transform"))
    // "On this page": beside the text, and in the drawer.
    .replaceAll(ON_THIS_PAGE_SHELL, mark("toc"))
    // Last, as the tokens above contain it: the shell's own address (og:url, canonical) becomes the chapter's.
    .replaceAll(SHELL_PATH, `/${mark("slug")}`);
  // The rail and the drawer: the chapters near this one, this one marked current; the page script
  // puts in the level's whole list from the shared one (issue 45: 1).
  const near = nearby(levelChapters, chapter.slug);
  const page = fillMarks(marked, {
    body: renderChapterBody({ content: chapter.content, subsections }, options),
    pager: renderChapterPager(previous, next),
    description: escapeHtml(chapterDescription(chapter.content)),
    slug: chapter.slug,
    title: escapeHtml(chapter.title),
    transform: options.transformHref,
    toc: renderOnThisPage(subsections),
    rail: railItems(near.chapters, chapter.slug, near.from),
    drawer: drawerItems(near.chapters, chapter.slug, near.from),
  });
  return page;
}

const html = (body: string | Uint8Array<ArrayBuffer>, status: number, headers: Record<string, string>) =>
  new Response(typeof body === "string" ? body : keptBytes(body), { status, headers: { ...PAGE_SECURITY_HEADERS, "content-type": "text/html; charset=utf-8", ...headers } });

/**
 * A kept page as a body, without a copy: a Response copies a byte array it is given (30 KB at
 * every request), but not the chunks of a stream. Nothing downstream writes to the chunk.
 */
function keptBytes(bytes: Uint8Array<ArrayBuffer>): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

function builtPage(pathname: FunctionPage, status: number, fallback: string): Response {
  return html(sitePage(pathname) ?? `<!doctype html><title>${fallback}</title><h1>${fallback}</h1>`, status, NOT_CACHED);
}

/** This process's rendered chapter pages (render-cache.ts). */
const rendered = new RenderCache();

export async function chapterPage(request: Request, slug: string, again = true): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD") return builtPage("/404", 404, "404 Page Not Found");
  if (!SLUG_PATTERN.test(slug)) return builtPage("/404", 404, "404 Page Not Found");
  try {
    const db = await database();
    // The reader's session is checked in the same statement as the page key: one round trip.
    const sid = await verifiedSid(request, "reader");
    const { version, chapter, readerLevel } = await getChapterPageKey(db, slug, sid);
    if (!chapter) return builtPage("/chapter-not-found", 404, "Chapter not found");
    const level = levelOf(chapter.level);
    let tier: Level;
    try {
      // A reader who may read it, as read; anyone else (the admin, or a refusal) as requireReadable decides.
      tier = readerLevel !== null && canAccess(levelOf(readerLevel), level) ? levelOf(readerLevel) : await requireReadable(request, level);
    } catch (error) {
      if (error instanceof HttpError && (error.status === 401 || error.status === 403)) {
        return new Response(null, { status: 302, headers: { location: resumeFor(level), ...NOT_CACHED } });
      }
      throw error;
    }
    const shell = sitePage(SHELL_PATH);
    if (!shell) throw new Error(`The built site has no ${SHELL_PATH} page: rebuild the site.`);
    const key = `${databaseGeneration()}:${chapter.id}:${version}:${tier}`;
    let page = rendered.get(key, shell);
    if (page === undefined) {
      const data = await getChapterPage(db, slug);
      // Changed between the two reads (deleted, or moved to another level): decided afresh, once.
      if (!data || levelOf(data.chapter.level) !== level) return again ? chapterPage(request, slug, false) : builtPage("/chapter-not-found", 404, "Chapter not found");
      page = rendered.set(key, fillChapterShell(data, { canonical: true }));
    }
    return html(page, 200, level === "Operator" ? cdnCacheHeaders([BOOK_CACHE_TAG]) : NOT_CACHED);
  } catch (error) {
    // In the site's look and words (issue 22: 12), with the way back to the book.
    const again = { href: `/${slug}`, text: "Try again" };
    if (isDatabaseUnavailable(error)) {
      return html(noticeHtml({ title: "The book is unavailable for a moment", html: "Try again in a few seconds.", link: again }), 503, {
        ...NOT_CACHED,
        "retry-after": "5",
      });
    }
    logFailure("Could not render a chapter page", error);
    return html(noticeHtml({ title: "Something went wrong on our side", html: "The chapter could not be shown just now. Try again shortly.", link: again }), 500, NOT_CACHED);
  }
}
