/**
 * Calling the API as a client would, through the local host's routing (netlify.toml and each
 * function's config.path), without a socket.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { useDatabase } from "../../src/server/db/index.ts";
import type { DatabaseHandle } from "../../src/server/db/client.ts";
import { createFetchHandler } from "../../src/server/host/app.ts";
import type { CdnCache } from "../../src/server/host/cdn-cache.ts";
import { useLocalPurge } from "../../src/server/publish/cache-purge.ts";
import { loadFunctions } from "../../src/server/host/functions.ts";
import { readNetlifyConfig } from "../../src/server/host/netlify-config.ts";
import { StaticSite } from "../../src/server/host/static-site.ts";
import { useSitePages } from "../../src/server/pages/site-pages.ts";

export type Api = (pathname: string, init?: RequestInit) => Promise<Response>;

let functions: ReturnType<typeof loadFunctions> | undefined;

/**
 * An API client on `database`, which becomes the process's database; serving `siteDir` if given;
 * through `cache` (the CDN's stand-in, purged by content changes as the local host's is) if given.
 */
export async function apiClient(database: DatabaseHandle, siteDir?: string, { cache }: { cache?: CdnCache } = {}): Promise<Api> {
  useDatabase(database);
  functions ??= loadFunctions(readNetlifyConfig().functionsDir);
  const site = new StaticSite(siteDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "sb-site-")));
  useSitePages((pathname) => site.lookup(pathname)?.body.toString("utf8") ?? null);
  useLocalPurge(cache && ((tags) => cache.purge(tags)));
  const handler = createFetchHandler({ netlify: readNetlifyConfig(), functions: await functions, site: () => site, cache });
  return (pathname, init = {}) => {
    const headers = new Headers(init.headers);
    if (!headers.has("x-nf-client-connection-ip")) headers.set("x-nf-client-connection-ip", "203.0.113.7");
    return handler(new Request(new URL(pathname, "http://localhost"), { ...init, headers }));
  };
}
