import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "../db/client.ts";
import { createLocalPublisher } from "./local-publisher.ts";
import { readPublishView } from "./state.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the local publisher", () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openDatabase({ driver: "pglite", dataDir: null });
    await database.migrate();
  });
  afterAll(() => database?.close());

  /** A build that takes `ms` and counts its runs. */
  function counting(ms: number, fail = false) {
    const runs = { started: 0, finished: 0 };
    const build = async () => {
      runs.started++;
      await sleep(ms);
      if (fail) throw new Error("astro build exited with code 1.");
      runs.finished++;
      return { stamp: "stamp", textStamps: [] };
    };
    return { runs, build };
  }

  it("waits for changes to settle, then builds once", async () => {
    const { runs, build } = counting(10);
    const publisher = createLocalPublisher({ db: database.db, build, debounceMs: 60 });
    for (let i = 0; i < 5; i++) {
      publisher.request();
      await sleep(15);
    }
    expect(runs.started).toBe(0);
    await publisher.idle();
    expect(runs).toEqual({ started: 1, finished: 1 });
    expect((await readPublishView(database.db)).state).toBe("live");
  });

  it("builds exactly once more for changes made while a build runs", async () => {
    // A build long enough that the changes below surely land while it runs, on a busy machine too.
    const { runs, build } = counting(600);
    const publisher = createLocalPublisher({ db: database.db, build, debounceMs: 10 });
    publisher.request();
    await sleep(40); // the first build is running
    publisher.request();
    publisher.request();
    await sleep(40);
    publisher.request();
    await publisher.idle();
    expect(runs).toEqual({ started: 2, finished: 2 });
  });

  it("records a failed build with its reason, and the next one recovers", async () => {
    const failing = counting(5, true);
    const publisher = createLocalPublisher({ db: database.db, build: failing.build, debounceMs: 5 });
    publisher.now();
    await publisher.idle();
    const failed = await readPublishView(database.db);
    expect(failed.state).toBe("failed");
    expect(failed.error).toContain("astro build exited with code 1.");

    const working = counting(5);
    const next = createLocalPublisher({ db: database.db, build: working.build, debounceMs: 5 });
    next.now();
    await next.idle();
    expect((await readPublishView(database.db)).state).toBe("live");
  });

  it("stopping cancels a waiting build", async () => {
    const { runs, build } = counting(5);
    const publisher = createLocalPublisher({ db: database.db, build, debounceMs: 50 });
    publisher.request();
    await publisher.stop();
    await sleep(80);
    expect(runs.started).toBe(0);
    publisher.request();
    await sleep(80);
    expect(runs.started).toBe(0);
  });
  it("runs the follow-up once builds have been quiet for its wait, once for several builds, and records what it answers", async () => {
    const { runs, build } = counting(5);
    const followed: number[] = [];
    const publisher = createLocalPublisher({
      db: database.db,
      build,
      debounceMs: 5,
      followUpMs: 150,
      followUp: async () => {
        followed.push(runs.finished);
        return { stamp: "followed", textStamps: ["after"] };
      },
    });
    publisher.now();
    await publisher.idle();
    await sleep(60);
    publisher.now(); // a second edit within the wait: the follow-up waits again
    await publisher.idle();
    await sleep(60);
    expect(followed).toEqual([]);
    await expect.poll(() => followed, { timeout: 5_000 }).toEqual([2]);
    await publisher.idle();
    // The status reads what the follow-up answered (the builds answered no text stamps: 0).
    expect((await readPublishView(database.db)).searchIndex.withdrawn).toBe(1);
    await sleep(200);
    expect(followed).toEqual([2]); // once
    await publisher.stop();
  });

  it("stops a waiting follow-up with the publisher", async () => {
    const { build } = counting(5);
    let followed = 0;
    const publisher = createLocalPublisher({ db: database.db, build, debounceMs: 5, followUpMs: 50, followUp: async () => (followed++, null) });
    publisher.now();
    await publisher.idle();
    await publisher.stop();
    await sleep(150);
    expect(followed).toBe(0);
  });
});
