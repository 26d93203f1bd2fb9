/**
 * The production Netlify build's part in publishing: it records when it took its content
 * snapshot and, once the site is built, marks it published with the snapshot's stamp. If the
 * chapter list changed after the snapshot (edits made while it ran, which schedulePublish only
 * marked pending), it calls the build hook once more; other changes are live already.
 */
import type { Database } from "../db/types.ts";
import { currentContent, type SiteContent } from "../build/snapshot.ts";
import { callBuildHook } from "./publisher.ts";
import { isPending, markFailed, markPublished, markStarted, readPublishRow } from "./state.ts";

/** Runs `build` (which answers what it built of the content) as the production build. */
export async function publishedByBuild(db: Database, build: () => Promise<SiteContent>): Promise<void> {
  const startedAt = new Date();
  await markStarted(db, startedAt);
  let content: SiteContent;
  try {
    content = await build();
  } catch (error) {
    await markFailed(db, `The Netlify build failed: ${error instanceof Error ? error.message : String(error)}`);
    throw error;
  }
  await markPublished(db, startedAt, content);
  if (!isPending(await readPublishRow(db))) return;
  if ((await currentContent(db)).stamp === content.stamp) await markPublished(db, new Date(), content);
  else await callBuildHook(db, new Date(), true);
}
