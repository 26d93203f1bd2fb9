/**
 * The Netlify build's part in publishing: it records when it took its content snapshot and, once
 * the site is built, marks it published; if content changed after the snapshot (edits made while
 * it ran, which schedulePublish only marked pending), it calls the build hook once more.
 */
import type { Database } from "../db/client.ts";
import { callBuildHook } from "./publisher.ts";
import { markFailed, markPublished, markStarted, readPublishView } from "./state.ts";

export async function publishedByBuild(db: Database, build: () => Promise<void>): Promise<void> {
  const startedAt = new Date();
  await markStarted(db, startedAt);
  try {
    await build();
  } catch (error) {
    await markFailed(db, `The Netlify build failed: ${error instanceof Error ? error.message : String(error)}`);
    throw error;
  }
  await markPublished(db, startedAt);
  if ((await readPublishView(db)).pending) await callBuildHook(db, new Date(), true);
}
