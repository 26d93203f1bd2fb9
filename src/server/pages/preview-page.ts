/**
 * /admin/preview/{chapterId}?tier=Operator|Architect|Mastermind&version=live|draft (issue 14):
 * a chapter exactly as a reader of that tier would get it, rendered through the reader's own
 * chapter shell, without signing in as that reader and without publishing anything.
 * - The admin session is checked here, on the server; without one the page says to sign in (401).
 * - A tier that may not read the chapter's level gets what such a reader gets: sent to /resume.
 * - Never cached (private, no-store, and no CDN cache), and never indexed (noindex meta and header).
 * The page's script (src/scripts/page.ts) takes the tier from `data-preview-tier` instead of the
 * visitor's own session, and leaves the visitor's stored session alone.
 */
import { escapeHtml } from "../../lib/html.ts";
import { canAccess, isLevel, levelOf, type Level } from "../../lib/levels.ts";
import { requireAdmin } from "../access/admin.ts";
import { chapterPreview, type PreviewVersion } from "../admin/preview.ts";
import { database } from "../db/index.ts";
import { HttpError } from "../http/errors.ts";
import { parseId } from "../api/admin/ids.ts";
import { fillChapterShell, PAGE_SECURITY_HEADERS } from "./chapter-page.ts";
import { noticeHtml } from "./page-notice.ts";

/** Where previews live: `/admin/preview/{chapter id}` (netlify/functions/chapter-page.ts routes them here). */
export const PREVIEW_PATH = "/admin/preview/";

export const PREVIEW_HEADERS: Record<string, string> = {
  "cache-control": "private, no-store",
  "netlify-cdn-cache-control": "no-store",
  "x-robots-tag": "noindex, nofollow",
};

const page = (body: string, status: number) =>
  new Response(body, { status, headers: { ...PAGE_SECURITY_HEADERS, "content-type": "text/html; charset=utf-8", ...PREVIEW_HEADERS } });

const BACK_TO_PANEL = { href: "/admin", text: "Back to the admin panel" };

/** A notice in the site's look (sign in first, no such chapter, this tier is sent away). */
function notice(title: string, html: string, status: number, link = BACK_TO_PANEL): Response {
  return page(noticeHtml({ title, html, link }), status);
}

/** "a Mastermind chapter", "an Architect chapter". */
const aLevel = (level: Level) => `${/^[AEIOU]/.test(level) ? "an" : "a"} ${level}`;

/** In the book's type and colours (its theme's accent), as the rest of the page (issue 44: 8). */
const BANNER_STYLE =
  "position:fixed;z-index:60;left:50%;bottom:1rem;transform:translateX(-50%);padding:.4rem .9rem;border-radius:999px;background:var(--color-accent);color:var(--color-accent-ink);font:600 .8125rem/1.4 var(--font-book);box-shadow:0 2px 8px rgba(0,0,0,.3)";

export async function previewPage(request: Request, id: string): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD") return notice("Not found", "This address only shows pages.", 405);
  try {
    await requireAdmin(request);
  } catch (error) {
    if (error instanceof HttpError && (error.status === 401 || error.status === 403)) {
      return notice("Sign in to preview", "Previews are for the admin: sign in to the admin panel, then open the preview again.", error.status, {
        href: "/admin",
        text: "Sign in to the admin panel",
      });
    }
    throw error;
  }
  const url = new URL(request.url);
  const tierParam = url.searchParams.get("tier") ?? "Operator";
  const versionParam = url.searchParams.get("version") ?? "live";
  if (!isLevel(tierParam)) return notice("Unknown tier", "Choose a tier: Operator, Architect or Mastermind.", 400);
  if (versionParam !== "live" && versionParam !== "draft") return notice("Unknown version", "Choose the live version or the draft.", 400);
  const tier: Level = tierParam;
  const version: PreviewVersion = versionParam;
  let chapterId: number;
  try {
    chapterId = parseId(id);
  } catch (error) {
    return notice("No such chapter", escapeHtml(error instanceof Error ? error.message : String(error)), 400);
  }
  try {
    const preview = await chapterPreview(await database(), chapterId, version);
    const level = levelOf(preview.data.chapter.level);
    const title = preview.data.chapter.title;
    if (!canAccess(tier === "Operator" ? null : tier, level)) {
      return notice(
        `Preview as ${tier}: not shown`,
        `A reader with ${tier} access does not get “${escapeHtml(title)}”, ${aLevel(level)} chapter: opening it sends them to /resume to sign in with an access code.`,
        200,
      );
    }
    const label = `Preview as ${tier} · ${version === "draft" && preview.unpublished ? "draft, not published" : "as published"}`;
    const html = fillChapterShell(preview.data, { canonical: false })
      .replace(/<html\b/, `<html data-preview-tier="${tier}"`)
      .replace(/<title>/, `<title>Preview: `)
      .replace(/<body\b([^>]*)>/, (body) => `${body}<div role="status" data-preview-banner style="${BANNER_STYLE}">${escapeHtml(label)}</div>`);
    return page(html, 200);
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) return notice("Nothing to preview", escapeHtml(error.message), 404);
    throw error;
  }
}
