import { createHash } from "node:crypto";
import { json } from "./respond.ts";

/**
 * Caching answers at the CDN (Netlify's, or the local host's stand-in: src/server/host/cdn-cache.ts).
 * A cached answer is kept until a purge names one of its tags or a new deploy goes live; browsers
 * always revalidate. Only answers that are the same for every visitor may carry these headers.
 */

/** The tag of every answer built from the book's content: any content change purges it. */
export const BOOK_CACHE_TAG = "book";

/** Headers that let the CDN keep an answer, durably (shared by every edge node), for up to a year. */
export function cdnCacheHeaders(tags: readonly string[]): Record<string, string> {
  return {
    "cache-control": "public, max-age=0, must-revalidate",
    "netlify-cdn-cache-control": "public, durable, s-maxage=31536000",
    "netlify-cache-tag": tags.join(","),
  };
}

/**
 * A JSON answer that is the same for every caller, kept at the CDN under `tags` and carrying an
 * ETag, so a browser's revalidation is answered 304 by the CDN (Netlify's, or the local host's).
 */
export function publicJson(data: unknown, tags: readonly string[] = [BOOK_CACHE_TAG]): Response {
  const body = JSON.stringify(data);
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
  return json(data, { headers: { ...cdnCacheHeaders(tags), etag } });
}
