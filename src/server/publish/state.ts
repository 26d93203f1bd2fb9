/**
 * Whether the static site shows the latest content: one row in the database (publish_state), so
 * every instance and the Netlify build see the same. A content change sets `requestedAt`; a
 * publish sets `startedAt` when it takes its content snapshot. Work is pending while the last
 * change is newer than the last publish's start.
 */
import { eq, sql } from "../db/orm.ts";
import type { Database } from "../db/types.ts";
import { publishState } from "../db/schema.ts";

export type PublishStateName = "live" | "publishing" | "failed";

/** What GET /api/admin/publish answers. */
export interface PublishView {
  state: PublishStateName;
  lastPublishedAt: string | null;
  error: string | null;
  pending: boolean;
}

type Row = typeof publishState.$inferSelect;

export async function readPublishRow(db: Database): Promise<Row> {
  const [row] = await db.select().from(publishState).where(eq(publishState.id, 1));
  return row ?? { id: 1, state: "live", requestedAt: null, startedAt: null, lastPublishedAt: null, error: null, siteStamp: null };
}

export function toPublishView(row: Row): PublishView {
  return {
    state: row.state as PublishStateName,
    lastPublishedAt: row.lastPublishedAt?.toISOString() ?? null,
    error: row.error,
    pending: row.requestedAt !== null && (row.startedAt === null || row.requestedAt > row.startedAt),
  };
}

export async function readPublishView(db: Database): Promise<PublishView> {
  return toPublishView(await readPublishRow(db));
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

/** The publish that started at `startedAt` is live; `siteStamp` is the content stamp it was built from. */
export async function markPublished(db: Database, startedAt: Date, siteStamp: string, now = new Date()): Promise<void> {
  await upsert(db, { state: "live", startedAt, lastPublishedAt: now, error: null, siteStamp });
}

export async function markFailed(db: Database, error: string): Promise<void> {
  await upsert(db, { state: "failed", error: error.slice(0, 2000) });
}
