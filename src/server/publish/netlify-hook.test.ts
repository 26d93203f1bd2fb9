/** On Netlify a content change calls the build hook (fetch stubbed: the hook is an https URL). */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { config, useConfig } from "../config.ts";
import { openDatabase, type DatabaseHandle } from "../db/client.ts";
import { MISSING_HOOK, publishNow, schedulePublish } from "./publisher.ts";
import { markPublished, readPublishView } from "./state.ts";

describe("publishing on Netlify", () => {
  const previous = config();
  const hook = "https://api.netlify.com/build_hooks/0123456789abcdef";
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openDatabase({ driver: "pglite", dataDir: null });
    await database.migrate();
  });
  afterAll(async () => {
    useConfig(previous);
    await database?.close();
  });
  afterEach(() => vi.restoreAllMocks());

  it("calls the build hook once per change, not again while that build runs, and again on Publish", async () => {
    useConfig({ ...previous, onNetlify: true, buildHookUrl: hook });
    const fetch = vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response("", { status: 200 }));
    await markPublished(database.db, new Date());
    await schedulePublish(database.db);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch.mock.calls[0]![0]).toBe(hook);
    expect(fetch.mock.calls[0]![1]).toMatchObject({ method: "POST" });
    expect((await readPublishView(database.db)).state).toBe("publishing");

    await schedulePublish(database.db); // a build is under way: it is only marked pending
    expect(fetch).toHaveBeenCalledTimes(1);
    expect((await readPublishView(database.db)).pending).toBe(true);

    await publishNow(database.db); // Publish now forces another build
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it("records why publishing failed: a refused hook, or no hook configured", async () => {
    await markPublished(database.db, new Date());
    useConfig({ ...previous, onNetlify: true, buildHookUrl: hook });
    vi.spyOn(globalThis, "fetch").mockResolvedValue(new Response("nope", { status: 404, statusText: "Not Found" }));
    await schedulePublish(database.db);
    const refused = await readPublishView(database.db);
    expect(refused.state).toBe("failed");
    expect(refused.error).toContain("the build hook answered 404");

    useConfig({ ...previous, onNetlify: true, buildHookUrl: undefined });
    await publishNow(database.db);
    expect((await readPublishView(database.db)).error).toBe(MISSING_HOOK);
  });
});
