/**
 * The local host: one Node process serving the built site and every Netlify Function, imported
 * once, on one database it owns. `npm start` runs it; tests start it on a free port.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Config } from "../config.ts";
import type { DatabaseHandle } from "../db/client.ts";
import { closeDatabase, useDatabase } from "../db/index.ts";
import { seedIfEmpty } from "../content/seed.ts";
import { loadAssessment } from "../assessment/content.ts";
import { abortBuilds, buildSite, ensureBuilt } from "../build/site-builder.ts";
import { hasSearchDelta } from "../build/static-index.ts";
import { currentContent } from "../build/snapshot.ts";
import { createHandler } from "./app.ts";
import { CdnCache } from "./cdn-cache.ts";
import { loadFunctions } from "./functions.ts";
import { readNetlifyConfig } from "./netlify-config.ts";
import { StaticSite } from "./static-site.ts";
import { useSitePages } from "../pages/site-pages.ts";
import { issueSetupToken } from "../admin/setup-token.ts";
import { createLocalPublisher } from "../publish/local-publisher.ts";
import { useLocalPublisher } from "../publish/publisher.ts";
import { markPublished } from "../publish/state.ts";
import { useLocalPurge, watchPurges } from "../publish/cache-purge.ts";
import { scheduleRetention } from "../maintenance/retention.ts";
import { schedulePublishing } from "../maintenance/scheduled-publishing.ts";
import { scheduleLeadDeliveries } from "../maintenance/lead-deliveries.ts";

export interface RunningHost {
  url: string;
  port: number;
  /** Stops taking requests, finishes those in flight, then closes the database. */
  close(): Promise<void>;
}

export interface HostStartOptions {
  config: Config;
  database: DatabaseHandle;
  log?: (line: string) => void;
  /** How long in-flight requests may take to finish at shutdown. */
  drainMs?: number;
  /** How long content changes must settle before the site is rebuilt. */
  publishDebounceMs?: number;
}

export async function startHost({
  config,
  database,
  log = console.log,
  drainMs = 10_000,
  publishDebounceMs = 1000,
}: HostStartOptions): Promise<RunningHost> {
  loadAssessment(); // a broken content/assessment.yaml stops the start, naming the field
  await database.migrate();
  const seeded = await seedIfEmpty(database.db);
  if (seeded) log(`Loaded the seed book: ${seeded.inserted} chapters.`);
  useDatabase(database);

  const netlify = readNetlifyConfig();
  const siteDir = config.siteDir ?? netlify.publish;
  const buildOptions = { db: database.db, outDir: siteDir, workDir: path.join(config.dataDir, "build"), log };
  const builtAt = new Date();
  // (At start, no search delta: the whole index, as the publisher's follow-up writes it.)
  const { built, content } = await ensureBuilt({ ...buildOptions, wholeIndex: true });
  if (!built) log("The static site is up to date.");
  await markPublished(database.db, builtAt, content);
  /** The chapter list the static pages being served show (its content stamp). */
  let siteStamp = content.stamp;
  // The CDN's cache of function answers: purged by content changes (here or, through the
  // database, on any server sharing it) and emptied when a new site is swapped in, as a deploy does.
  const cache = new CdnCache();
  useLocalPurge((tags) => cache.purge(tags));
  // Reassigned when a publish completes: requests read it afresh, so the new site is served at once.
  let site = new StaticSite(siteDir);
  // Each page's text made once per built file: the chapter function reads the shell on every request.
  const pageTexts = new WeakMap<object, string>();
  useSitePages((pathname) => {
    const file = site.lookup(pathname);
    if (!file) return null;
    let text = pageTexts.get(file);
    if (text === undefined) pageTexts.set(file, (text = file.body.toString("utf8")));
    return text;
  });
  const publisher = createLocalPublisher({
    db: database.db,
    debounceMs: publishDebounceMs,
    log,
    build: async () => {
      const rebuilt = await ensureBuilt(buildOptions);
      if (rebuilt.built) {
        site = new StaticSite(siteDir);
        cache.purge();
      }
      siteStamp = rebuilt.content.stamp;
      return rebuilt.content;
    },
    // A build that left a search delta (a text edit: decision 0030) is live in a second or two;
    // once edits are quiet, the whole index is written again, so the edited chapters' earlier
    // text leaves the public files.
    followUp: async () => {
      if (!hasSearchDelta(siteDir)) return null;
      const folded = await buildSite({ ...buildOptions, wholeIndex: true });
      site = new StaticSite(siteDir);
      siteStamp = folded.stamp;
      return folded;
    },
  });
  useLocalPublisher(publisher);
  // A change saved by any server on this database: drop the cached pages, and rebuild this
  // server's static pages if what they hold changed: the chapter list or the open level's
  // searchable text (debounced: one build per burst).
  const stopWatching =
    database.driver === "pglite"
      ? async () => {}
      : await watchPurges(database.db, (tags) => {
          cache.purge(tags);
          currentContent(database.db)
            .then((current) => current.stamp !== siteStamp && publisher.request())
            .catch(() => {}); // the database away for a moment: the next change tries again
        });
  const functions = await loadFunctions(netlify.functionsDir);
  // What Netlify's scheduled retention function does daily, on a timer here.
  const stopRetention = scheduleRetention(database.db, log);
  // Drafts scheduled to go live: Netlify's scheduled function runs every 15 minutes, this timer every minute.
  const stopPublishing = schedulePublishing(database.db, log);
  // And what the scheduled lead-webhooks function does every 15 minutes: retries, and work left by a stop.
  const stopLeadDeliveries = scheduleLeadDeliveries(database.db, log);

  const listening = await listen(createHandler({ netlify, functions, site: () => site, cache, trustedProxies: config.trustedProxies }), config.port, config.host);
  // While no admin exists, each start prints a new one-time link that creates the first one.
  const setupToken = await issueSetupToken(database.db);
  if (setupToken) {
    log(`No admin account yet. Create the first one at ${listening.url}/admin?setup=${setupToken} (works once, for 24 hours).`);
  }
  let closing: Promise<void> | undefined;
  return {
    ...listening,
    close() {
      closing ??= listening
        .close(drainMs)
        .then(() => {
          // A site build in progress is abandoned (the current site stays as it is), not awaited.
          abortBuilds();
          stopRetention();
          stopPublishing();
          stopLeadDeliveries();
          return publisher.stop();
        })
        .then(() => {
          useLocalPublisher(undefined);
          useLocalPurge(undefined);
          return stopWatching();
        })
        .then(closeDatabase);
      return closing;
    },
  };
}

/**
 * Serves `handler` on a port. `close` stops taking connections, lets the requests in flight
 * finish (cutting them off after `drainMs`), and resolves once the server is closed.
 */
export async function listen(handler: http.RequestListener, port: number, host: string) {
  const server = http.createServer(handler);
  // An idle kept-alive connection is closed by the client first: a server that closes it at the
  // moment a client reuses it resets that request (ECONNRESET), which the end-to-end tests met
  // with the 5 s this was. 65 s is above the idle timeouts of browsers' and proxies' pools.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    port: actual,
    url: `http://localhost:${actual}`,
    async close(drainMs: number): Promise<void> {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // A kept-alive connection whose last request finishes goes idle, and is closed then (not
      // when drainMs runs out): the server stops as soon as the requests in flight are answered.
      const idle = setInterval(() => server.closeIdleConnections(), 50);
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), drainMs);
      await closed;
      clearInterval(idle);
      clearTimeout(timer);
    },
  };
}
