/**
 * Whether the static site shows the latest content: one row in the database (publish_state), so
 * every instance and the Netlify build see the same. A content change sets `requestedAt`; a
 * publish sets `startedAt` when it takes its content snapshot. Work is pending while the last
 * change is newer than the last publish's start.
 *
 * The publish status (GET /api/admin/publish) adds what else stands between a change and readers:
 * cache purges still open (cache-purge.ts), a build that never reported back, a missing build
 * hook, and whether the static search index holds the open level's current text (after a failed
 * build it still holds the old text, words since changed or withdrawn included).
 */
import { eq, sql } from "../db/orm.ts";
import { config, MALFORMED_HOOK, type Config } from "../config.ts";
import type { Database } from "../db/types.ts";
import { publishState } from "../db/schema.ts";
import { currentContent, type SiteContent } from "../build/snapshot.ts";
import { CDN_MAX_AGE_S } from "../http/cdn.ts";
import { readCachePurgeView, type CachePurgeView } from "./cache-purge.ts";

export type PublishStateName = "live" | "publishing" | "failed";

/** A Netlify build that started longer ago than this is taken to have died: the hook is called again, and the status says so. */
export const STALE_BUILD_MS = 20 * 60 * 1000;

export const MISSING_HOOK =
  "BUILD_HOOK_URL is not set, so content changes cannot reach the static pages (chapter lists, sitemap, search index). Create a build hook in Netlify (Site configuration > Build & deploy > Build hooks) and set BUILD_HOOK_URL to its URL with the Functions scope, then deploy the site again (which also publishes the waiting changes).";

export const STALE_BUILD =
  "The site build has not reported back for more than 20 minutes: it failed or was stopped before it finished (on Netlify, its deploy log says why). Try Publish again.";

/** Why the status shows a purge that failed (`reason`: the purge API's answer). */
export function purgeFailedMessage(reason: string | null): string {
  return `The cached chapter pages could not be cleared (${reason ?? "no answer"}), so readers may still be served chapters as they were before the change, even one since withdrawn or deleted. This is tried again automatically until it succeeds, and every cached page expires within ${Math.round(CDN_MAX_AGE_S / 60)} minutes regardless.`;
}

/**
 * Whether the static search index (built with the site) holds the open level's current text. Its
 * files (/search-index/) are public: text withdrawn from the open level (a chapter or subsection
 * edited, deleted, moved to a locked level or back to draft) stays downloadable there until a
 * build is live. The search box leaves such results out (their text stamps no longer match the
 * live list's), but that only hides them from the box: it withdraws nothing from the files.
 */
export interface SearchIndexView {
  /** current; updating: a build that will hold it is under way; outdated: none is coming (the last one failed, or none can be started). */
  state: "current" | "updating" | "outdated";
  /** The index holds the open level's text as it was at this time (the last publish). */
  asOf: string | null;
  /** How many open chapters' earlier text the search files hold that readers no longer see (edited, withdrawn or deleted since). */
  withdrawn: number;
  /** Such text is public and no build is coming to replace it (the last build failed, or none can be started): the panel says so. */
  exposed: boolean;
}

/** What GET /api/admin/publish answers. */
export interface PublishView {
  state: PublishStateName;
  lastPublishedAt: string | null;
  /** Every problem that stands between a change and readers, in plain sentences; null when none. */
  error: string | null;
  pending: boolean;
  cachePurge: CachePurgeView;
  searchIndex: SearchIndexView;
}

type Row = typeof publishState.$inferSelect;

export async function readPublishRow(db: Database): Promise<Row> {
  const [row] = await db.select().from(publishState).where(eq(publishState.id, 1));
  return row ?? { id: 1, state: "live", requestedAt: null, startedAt: null, lastPublishedAt: null, error: null, siteStamp: null, siteTextStamps: null };
}

export interface ViewContext {
  cachePurge: CachePurgeView;
  /** What the static pages would hold of the content if built now. */
  current: SiteContent;
  settings: Pick<Config, "platform" | "deployContext" | "buildHookUrl" | "buildHookProblem">;
  now: Date;
}

/** Whether a change is newer than the last publish's start. */
export function isPending(row: Row): boolean {
  return row.requestedAt !== null && (row.startedAt === null || row.requestedAt > row.startedAt);
}

export function toPublishView(row: Row, { cachePurge, current, settings, now }: ViewContext): PublishView {
  const pending = isPending(row);
  const stale = row.state === "publishing" && row.startedAt !== null && now.getTime() - row.startedAt.getTime() > STALE_BUILD_MS;
  const problems: string[] = [];
  // A publish that failed for want of a usable hook is told as the hook's setting is now: fixed,
  // or still (or otherwise) wrong, which is added below.
  const hookFailure = row.error === MISSING_HOOK || row.error === MALFORMED_HOOK;
  const rowFailed = row.state === "failed" && !hookFailure;
  if (rowFailed && row.error) problems.push(row.error);
  if (stale) problems.push(STALE_BUILD);
  if (cachePurge.state === "failed") problems.push(purgeFailedMessage(cachePurge.lastError));
  const hookMissing = settings.platform === "netlify-functions" && settings.deployContext === "production" && !settings.buildHookUrl;
  // (A malformed hook is named wherever it is set: it is a typo to fix, not a choice.)
  const hookProblem = settings.buildHookProblem ?? (hookMissing ? MISSING_HOOK : undefined);
  if (hookProblem && !problems.includes(hookProblem)) problems.push(hookProblem);
  const failed = rowFailed || problems.length > 0;
  const building = row.state === "publishing" && !stale;
  // On Netlify a change reaches the static pages only through the build hook, which only the
  // production context calls: without a usable one, no build follows a change.
  const noBuildFollows = settings.platform === "netlify-functions" && (settings.deployContext !== "production" || !settings.buildHookUrl);
  const live = new Set(current.textStamps);
  const withdrawn = (row.siteTextStamps ?? []).filter((stamp) => !live.has(stamp)).length;
  const indexState = row.siteStamp === current.stamp ? "current" : building || (pending && row.state === "live" && !noBuildFollows) ? "updating" : "outdated";
  return {
    state: failed ? "failed" : row.state === "failed" ? "live" : (row.state as PublishStateName),
    lastPublishedAt: row.lastPublishedAt?.toISOString() ?? null,
    error: problems.length > 0 ? problems.join(" ") : null,
    pending,
    cachePurge,
    searchIndex: {
      state: indexState,
      asOf: row.lastPublishedAt?.toISOString() ?? null,
      withdrawn,
      exposed: withdrawn > 0 && indexState === "outdated",
    },
  };
}

/** The publish status: the row, the open purges, the search index's freshness and the configuration. */
export async function readPublishView(db: Database, now = new Date()): Promise<PublishView> {
  const row = await readPublishRow(db);
  const cachePurge = await readCachePurgeView(db);
  const current = await currentContent(db);
  return toPublishView(row, { cachePurge, current, settings: config(), now });
}

async function upsert(db: Database, values: Partial<Omit<Row, "id">>): Promise<void> {
  await db.insert(publishState).values({ id: 1, ...values }).onConflictDoUpdate({ target: publishState.id, set: values });
}

/** A content change happened at `now`: it is pending until a publish starts after it. */
export async function markRequested(db: Database, now = new Date()): Promise<void> {
  await db
    .insert(publishState)
    .values({ id: 1, requestedAt: now })
    .onConflictDoUpdate({
      target: publishState.id,
      set: { requestedAt: sql`greatest(${publishState.requestedAt}, excluded.requested_at)` },
    });
}

/** A publish took its snapshot of the content at `now`. */
export async function markStarted(db: Database, now = new Date()): Promise<void> {
  await upsert(db, { state: "publishing", startedAt: now, error: null });
}

/**
 * Claims the start of a build at `now`, unless one started after `staleBefore` is still under way:
 * one statement, so of several instances asking at once exactly one gets true.
 */
export async function claimBuild(db: Database, now: Date, staleBefore: Date): Promise<boolean> {
  const claimed = await db
    .insert(publishState)
    .values({ id: 1, state: "publishing", startedAt: now, error: null })
    .onConflictDoUpdate({
      target: publishState.id,
      set: { state: "publishing", startedAt: now, error: null },
      setWhere: sql`${publishState.state} <> 'publishing' or ${publishState.startedAt} is null or ${publishState.startedAt} < ${staleBefore}`,
    })
    .returning({ id: publishState.id });
  return claimed.length > 0;
}

/** The publish that started at `startedAt` is live, holding `content` (what it was built from). */
export async function markPublished(db: Database, startedAt: Date, content: SiteContent, now = new Date()): Promise<void> {
  await upsert(db, { state: "live", startedAt, lastPublishedAt: now, error: null, siteStamp: content.stamp, siteTextStamps: content.textStamps });
}

export async function markFailed(db: Database, error: string): Promise<void> {
  await upsert(db, { state: "failed", error: error.slice(0, 2000) });
}
