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
  /**
   * A second step, once builds have been quiet for `followUpMs`: answers what the site holds after
   * it, or null when it had nothing to do. The local host writes the whole search index again
   * there after builds that left a delta (static-index.ts, decision 0030): an operator editing one
   * chapter after another has each edit live in a second or two, and the whole index once.
   */
  followUp?: () => Promise<SiteContent | null>;
  followUpMs?: number;
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
  followUp,
  followUpMs = 15_000,
  debounceMs = 1000,
  log = () => {},
  clock = () => new Date(),
}: LocalPublisherOptions): RunningPublisher {
  let timer: NodeJS.Timeout | undefined;
  let followUpTimer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let waiters: (() => void)[] = [];

  const settle = () => {
    if (timer || running || again) return;
    for (const resolve of waiters) resolve();
    waiters = [];
  };

  /** Runs `step` as the one run at a time; a request that comes meanwhile makes one more build after it. */
  const exclusive = (step: () => Promise<void>): void => {
    running = (async () => {
      try {
        await step();
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

  const run = (): void => {
    timer = undefined;
    if (stopped) return settle();
    if (running) {
      again = true;
      return;
    }
    clearTimeout(followUpTimer);
    exclusive(async () => {
      const startedAt = clock();
      await markStarted(db, startedAt);
      await markPublished(db, startedAt, await build(), clock());
      log(`Published the content changes (${((clock().getTime() - startedAt.getTime()) / 1000).toFixed(1)} s).`);
      if (followUp) followUpTimer = setTimeout(runFollowUp, followUpMs).unref();
    });
  };

  const runFollowUp = (): void => {
    followUpTimer = undefined;
    // (A build under way or waiting sets the follow-up again when it is done.)
    if (stopped || running || timer || !followUp) return;
    exclusive(async () => {
      const startedAt = clock();
      const followed = await followUp();
      if (followed) await markPublished(db, startedAt, followed, clock());
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
      clearTimeout(followUpTimer);
      timer = undefined;
      await running;
      settle();
    },
  };
}
