/**
 * /{slug} for a chapter that has no prerendered page: every locked chapter, and any chapter made
 * after the last build. The reader may read it: the chapter shell (a prerendered reader page with
 * placeholders) filled on the server with the chapter, rendered by the same function as static
 * pages. They may not: off to /resume. No such chapter: the 404 page, with status 404.
 */
import { renderChapterBody } from "../../lib/chapter-body.ts";
import { escapeHtml } from "../../lib/html.ts";
import { levelOf } from "../../lib/levels.ts";
import { SLUG_PATTERN } from "../../lib/slug.ts";
import { requireReadable } from "../access/reader.ts";
import { database } from "../db/index.ts";
import { HttpError, isDatabaseUnavailable } from "../http/errors.ts";
import { getChapterBySlug, listChapters, listSubsections } from "../repositories/chapters.ts";
import { sitePage } from "./site-pages.ts";

/**
 * The shell page and the tokens it is built with (src/pages/chapter-shell.astro renders
 * ChapterView with this chapter); the server swaps each for the real chapter's value.
 */
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
export const SHELL_TRANSFORM_HREF = "/chapter-shell-transform";

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

const html = (body: string, status: number, cacheControl: string) =>
  new Response(body, {
    status,
    headers: { ...PAGE_SECURITY_HEADERS, "content-type": "text/html; charset=utf-8", "cache-control": cacheControl },
  });

async function notFoundPage(request: Request): Promise<Response> {
  const page = await sitePage(request, "/404");
  return html(page ?? "<!doctype html><title>404 Page Not Found</title><h1>404 Page Not Found</h1>", 404, "no-store");
}

export async function chapterPage(request: Request, slug: string): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD") return notFoundPage(request);
  try {
    const db = await database();
    const chapter = SLUG_PATTERN.test(slug) ? await getChapterBySlug(db, slug) : undefined;
    if (!chapter) return notFoundPage(request);
    try {
      await requireReadable(request, chapter.level);
    } catch (error) {
      if (error instanceof HttpError && (error.status === 401 || error.status === 403)) {
        return new Response(null, { status: 302, headers: { location: "/resume", "cache-control": "no-store" } });
      }
      throw error;
    }
    const [shell, subsections, operator] = await Promise.all([
      sitePage(request, SHELL_PATH),
      listSubsections(db, chapter.id),
      listChapters(db, ["Operator"]),
    ]);
    if (!shell) throw new Error(`The built site has no ${SHELL_PATH} page: rebuild the site.`);
    const options = { transformHref: operator[0] ? `/${operator[0].slug}` : "/" };
    const shellBody = renderChapterBody(SHELL_CHAPTER, { transformHref: SHELL_TRANSFORM_HREF });
    const body = renderChapterBody({ content: chapter.content, subsections }, options);
    if (!shell.includes(shellBody)) throw new Error(`${SHELL_PATH} does not hold the chapter body placeholder.`);
    const page = shell
      .replace(shellBody, () => body)
      .replaceAll(SHELL_CHAPTER.slug, chapter.slug)
      .replaceAll(SHELL_CHAPTER.title, escapeHtml(chapter.title))
      .replaceAll(SHELL_CHAPTER.level, levelOf(chapter.level))
      .replaceAll(String(SHELL_CHAPTER.readingTime), String(chapter.readingTime))
      .replaceAll(SHELL_TRANSFORM_HREF, options.transformHref)
      // Last, as the tokens above contain it: the shell's own address (og:url) becomes the chapter's.
      .replaceAll(SHELL_PATH, `/${chapter.slug}`);
    const locked = levelOf(chapter.level) !== "Operator";
    return html(page, 200, locked ? "private, no-store" : "public, max-age=0, must-revalidate");
  } catch (error) {
    if (isDatabaseUnavailable(error)) {
      return html("<!doctype html><title>Unavailable</title><p>The book is unavailable for a moment. Try again shortly.</p>", 503, "no-store");
    }
    console.error("Could not render a chapter page:", error);
    return html("<!doctype html><title>Error</title><p>Something went wrong on our side. Try again shortly.</p>", 500, "no-store");
  }
}
