/**
 * A page's first view, as a visitor's browser moves it over the wire (issue 20: 2): a fresh
 * browser context (cold cache), the page opened and left alone until it has done everything it
 * does by itself (untouched-page.ts: its load, its requests, its timers), no input at all. Every response is counted with what it transferred (its
 * compressed body and its headers), by kind, and those a function answered (the host's
 * `Cache-Status: ...; fwd=miss`, as Netlify's CDN marks them) are counted as requests that reached
 * the origin. Used by the budget test and by `npm run bench`.
 */
import type { Browser, Request } from "@playwright/test";
import { openUntouched } from "./untouched-page.ts";

export type Kind = "html" | "css" | "js" | "font" | "image" | "data" | "other";

export interface FirstView {
  /** Bytes transferred, all together. */
  total: number;
  /** Bytes transferred, by kind. */
  bytes: Record<Kind, number>;
  /** Every response: its path, kind and bytes, and whether a function answered it. */
  responses: Array<{ path: string; kind: Kind; bytes: number; origin: boolean }>;
  /** Requests that reached the origin (a function, a database read). */
  origin: string[];
}

const KINDS: Record<string, Kind> = { document: "html", stylesheet: "css", script: "js", font: "font", image: "image", fetch: "data", xhr: "data" };

function kindOf(request: Request): Kind {
  const type = request.resourceType();
  if (KINDS[type]) return KINDS[type]!;
  // Prefetched modules (<link rel="prefetch" as="script">) are scripts all the same.
  return /\.m?js$/.test(new URL(request.url()).pathname) ? "js" : "other";
}

/** Opens `url` in a fresh context of `browser` and counts its first view (see above). */
export async function firstView(
  browser: Browser,
  url: string,
  { viewport = { width: 390, height: 844 }, quietMs, headers = {} }: { viewport?: { width: number; height: number }; quietMs?: number; headers?: Record<string, string> } = {},
): Promise<FirstView> {
  const context = await browser.newContext({ viewport, extraHTTPHeaders: headers });
  const page = await context.newPage();
  const done: Array<Promise<FirstView["responses"][number] | null>> = [];
  page.on("requestfinished", (request) => {
    done.push(
      (async () => {
        const response = await request.response();
        if (!response) return null;
        const sizes = await request.sizes();
        return {
          path: new URL(request.url()).pathname,
          kind: kindOf(request),
          bytes: sizes.responseBodySize + sizes.responseHeadersSize,
          origin: /fwd=/.test((await response.allHeaders())["cache-status"] ?? ""),
        };
      })().catch(() => null),
    );
  });
  try {
    await openUntouched(page, url, { quietMs });
    const responses = (await Promise.all(done)).filter((r): r is FirstView["responses"][number] => r !== null);
    const bytes: Record<Kind, number> = { html: 0, css: 0, js: 0, font: 0, image: 0, data: 0, other: 0 };
    for (const response of responses) bytes[response.kind] += response.bytes;
    return {
      total: responses.reduce((sum, r) => sum + r.bytes, 0),
      bytes,
      responses,
      origin: responses.filter((r) => r.origin).map((r) => r.path),
    };
  } finally {
    await context.close();
  }
}
