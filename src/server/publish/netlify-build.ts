/**
 * The production Netlify build's part in publishing: it records when it took its content
 * snapshot and, once the site is built, marks it published with the snapshot's stamp. If the
 * chapter list changed after the snapshot (edits made while it ran, which schedulePublish only
 * marked pending), it calls the build hook once more; other changes are live already.
 */
import type { Database } from "../db/types.ts";
import { snapshotStamp, takeSnapshot } from "../build/snapshot.ts";
import { callBuildHook } from "./publisher.ts";
import { isPending, markFailed, markPublished, markStarted, readPublishRow } from "./state.ts";

/** Runs `build` (which answers the content stamp it built) as the production build. */
export async function publishedByBuild(db: Database, build: () => Promise<string>): Promise<void> {
  const startedAt = new Date();
  await markStarted(db, startedAt);
  let stamp: string;
  try {
    stamp = await build();
  } catch (error) {
    await markFailed(db, `The Netlify build failed: ${error instanceof Error ? error.message : String(error)}`);
    throw error;
  }
  await markPublished(db, startedAt, stamp);
  if (!isPending(await readPublishRow(db))) return;
  if (snapshotStamp(await takeSnapshot(db)) === stamp) await markPublished(db, new Date(), stamp);
  else await callBuildHook(db, new Date(), true);
}
