import { createHash } from "node:crypto";
import { json } from "./respond.ts";

/**
 * Caching answers at the CDN (Netlify's, or the local host's stand-in: src/server/host/cdn-cache.ts).
 * A cached answer is kept until a purge names one of its tags, a new deploy goes live, or
 * CDN_MAX_AGE_S has passed; browsers always revalidate. Only answers that are the same for every
 * visitor may carry these headers.
 */

/** The tag of every answer built from the book's content: any content change purges it. */
export const BOOK_CACHE_TAG = "book";

/**
 * The longest the CDN keeps an answer, in seconds: one hour. A content change purges the cached
 * answers at once, and a purge that fails is kept as a job and tried again until it succeeds
 * (src/server/publish/cache-purge.ts), so the cap is only the last line: for a purge that is lost
 * altogether (its job never written, or a purge the API accepted without dropping anything), a
 * chapter moved to a locked level or deleted stops being served within the hour whatever else
 * happens. Why an hour: a failed purge is retried by the scheduled function every 15 minutes, so
 * a shorter cap would seldom heal anything sooner, while each expiry costs one function call and
 * database read per cached address (an anonymous reader otherwise costs the origin nothing); a
 * day would leave paid chapters public for a day. Netlify applies the lifetime to durable answers
 * as to any other (its durable cache only shares them between edge nodes).
 */
export const CDN_MAX_AGE_S = 3600;

/** Headers that let the CDN keep an answer, durably (shared by every edge node), for up to CDN_MAX_AGE_S. */
export function cdnCacheHeaders(tags: readonly string[]): Record<string, string> {
  return {
    "cache-control": "public, max-age=0, must-revalidate",
    "netlify-cdn-cache-control": `public, durable, s-maxage=${CDN_MAX_AGE_S}`,
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
