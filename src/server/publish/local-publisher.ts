/**
 * The local host's publisher: after content changes settle for `debounceMs`, rebuild the static
 * site (the old one keeps serving meanwhile), then swap it in. A request that arrives while a
 * build runs makes exactly one more build after it, so the last change is always published.
 */
import type { Database } from "../db/types.ts";
import type { SiteContent } from "../build/snapshot.ts";
import type { LocalPublisher } from "./publisher.ts";
import { markFailed, markPublished, markStarted } from "./state.ts";

export interface LocalPublisherOptions {
  db: Database;
  /** Builds the site from the database's current content (if it changed) and swaps it in; answers what it holds of the content. */
  build: () => Promise<SiteContent>;
  debounceMs?: number;
  log?: (line: string) => void;
  clock?: () => Date;
}

export interface RunningPublisher extends LocalPublisher {
  /** Resolves once no build is waiting or running (tests, shutdown). */
  idle(): Promise<void>;
  /** Cancels a waiting build; a running one finishes. */
  stop(): Promise<void>;
}

export function createLocalPublisher({
  db,
  build,
  debounceMs = 1000,
  log = () => {},
  clock = () => new Date(),
}: LocalPublisherOptions): RunningPublisher {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let waiters: (() => void)[] = [];

  const settle = () => {
    if (timer || running || again) return;
    for (const resolve of waiters) resolve();
    waiters = [];
  };

  const run = (): void => {
    timer = undefined;
    if (stopped) return settle();
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      const startedAt = clock();
      try {
        await markStarted(db, startedAt);
        await markPublished(db, startedAt, await build(), clock());
        log(`Published the content changes (${((clock().getTime() - startedAt.getTime()) / 1000).toFixed(1)} s).`);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        log(`Publishing failed: ${message}`);
        await markFailed(db, `The site build failed: ${message}`).catch(() => {});
      }
    })().finally(() => {
      running = undefined;
      if (again && !stopped) {
        again = false;
        run();
      } else {
        again = false;
        settle();
      }
    });
  };

  return {
    request() {
      if (stopped) return;
      clearTimeout(timer);
      timer = setTimeout(run, debounceMs);
    },
    now() {
      if (stopped) return;
      clearTimeout(timer);
      run();
    },
    idle() {
      if (!timer && !running && !again) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      await running;
      settle();
    },
  };
}
