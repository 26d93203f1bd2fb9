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

/** Where previews live: `/admin/preview/{chapter id}` (netlify/functions/chapter-page.ts routes them here). */
export const PREVIEW_PATH = "/admin/preview/";

export const PREVIEW_HEADERS: Record<string, string> = {
  "cache-control": "private, no-store",
  "netlify-cdn-cache-control": "no-store",
  "x-robots-tag": "noindex, nofollow",
};

const page = (body: string, status: number) =>
  new Response(body, { status, headers: { ...PAGE_SECURITY_HEADERS, "content-type": "text/html; charset=utf-8", ...PREVIEW_HEADERS } });

/** A small page of its own (sign in first, no such chapter, this tier is sent away). */
function notice(title: string, text: string, status: number): Response {
  return page(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex, nofollow"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>` +
      `<body style="font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;line-height:1.5"><h1>${escapeHtml(title)}</h1><p>${text}</p><p><a href="/admin">Back to the admin panel</a></p></body></html>`,
    status,
  );
}

const BANNER_STYLE =
  "position:fixed;z-index:60;left:50%;bottom:1rem;transform:translateX(-50%);padding:.4rem .9rem;border-radius:999px;background:#1d4ed8;color:#fff;font:600 13px/1.4 system-ui,sans-serif;box-shadow:0 2px 8px rgba(0,0,0,.3)";

export async function previewPage(request: Request, id: string): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD") return notice("Not found", "This address only shows pages.", 405);
  try {
    await requireAdmin(request);
  } catch (error) {
    if (error instanceof HttpError && (error.status === 401 || error.status === 403)) {
      return notice("Sign in to preview", `Previews are for the admin: <a href="/admin">sign in to the admin panel</a>, then open the preview again.`, error.status);
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
        `A reader with ${tier} access does not get “${escapeHtml(title)}”, a ${level} chapter: opening it sends them to <a href="/resume">/resume</a> to sign in with an access code.`,
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
