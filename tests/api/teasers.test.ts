/**
 * Teasers of locked chapters (issue 15): the operator may write one in the chapter form; the
 * public chapter list then carries it for a locked chapter only, and never the chapter's text.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, type Api } from "../support/api.ts";
import { adminLogin, asAdmin } from "../support/admin.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";

type Json = Record<string, unknown>;

describe.each(databaseTargets())("teasers on $name", (target) => {
  let database: TestDatabase;
  let api: Api;
  let cookie: string;

  beforeAll(async () => {
    database = await target.open();
    api = await apiClient(database);
    ({ cookie } = await adminLogin(api, database.db));
  });
  afterAll(() => database?.dispose());

  const call = async (path: string, method = "GET", body?: unknown) => {
    const response = await api(path, asAdmin(cookie, method, body));
    return { status: response.status, body: (await response.json()) as Json & { error: { message: string } } };
  };
  const chapter = (values: Json) => ({ title: "A chapter", content: "The locked text itself.", readingTime: 5, order: 0, level: "Architect", ...values });
  const publicList = async () => (await (await api("/api/chapters")).json()) as Json[];

  it("stores a trimmed teaser and shows it in the public list for a locked chapter only", async () => {
    const created = await call("/api/admin/chapters", "POST", chapter({ slug: "teased", teaser: "  What you will find inside.  " }));
    expect(created.status).toBe(201);
    expect(created.body.teaser).toBe("What you will find inside.");
    await call("/api/admin/chapters", "POST", chapter({ slug: "untold" }));
    await call("/api/admin/chapters", "POST", chapter({ slug: "open-teased", level: "Operator", teaser: "Never shown: the chapter is open." }));

    const list = await publicList();
    expect(list.find((c) => c.slug === "teased")).toMatchObject({ level: "Architect", teaser: "What you will find inside." });
    expect(list.find((c) => c.slug === "untold")).not.toHaveProperty("teaser");
    expect(list.find((c) => c.slug === "open-teased")).not.toHaveProperty("teaser");
    expect(JSON.stringify(list)).not.toContain("The locked text itself.");
  });

  it("keeps the teaser on an edit that does not send it, clears it on an empty one", async () => {
    const created = await call("/api/admin/chapters", "POST", chapter({ slug: "kept", level: "Mastermind", teaser: "A first teaser." }));
    const id = created.body.id as number;
    const moved = await call(`/api/admin/chapters/${id}`, "PUT", chapter({ slug: "kept", level: "Mastermind", title: "Renamed" }));
    expect(moved.body.teaser).toBe("A first teaser.");
    expect((await publicList()).find((c) => c.slug === "kept")).toMatchObject({ title: "Renamed", teaser: "A first teaser." });
    const cleared = await call(`/api/admin/chapters/${id}`, "PUT", chapter({ slug: "kept", level: "Mastermind", teaser: "   " }));
    expect(cleared.body.teaser).toBeNull();
    expect((await publicList()).find((c) => c.slug === "kept")).not.toHaveProperty("teaser");
  });

  it("never shows a draft's teaser: a draft chapter's, or a pending edit's, until it is published (issue 21: 1)", async () => {
    const canary = "Teaser canary of a draft";
    const draft = await call("/api/admin/chapters", "POST", chapter({ slug: "draft-teased", level: "Mastermind", teaser: `${canary} chapter.`, draft: true }));
    expect(draft.status).toBe(201);
    expect(draft.body.status).toBe("draft");
    const live = await call("/api/admin/chapters", "POST", chapter({ slug: "live-teased", teaser: "The live teaser." }));
    const pending = await call(`/api/admin/chapters/${live.body.id}`, "PUT", chapter({ slug: "live-teased", teaser: `${canary} edit.`, draft: true }));
    expect(pending.status).toBe(200);
    expect(pending.body.draft).toMatchObject({ teaser: `${canary} edit.` });

    const text = async () => JSON.stringify(await publicList());
    expect(await text()).not.toContain(canary);
    expect((await publicList()).find((c) => c.slug === "live-teased")).toMatchObject({ teaser: "The live teaser." });
    expect((await publicList()).map((c) => c.slug)).not.toContain("draft-teased");

    // Published, each shows: the check above is not vacuous.
    expect((await call(`/api/admin/chapters/${draft.body.id}/publish`, "POST")).status).toBe(200);
    expect((await call(`/api/admin/chapters/${live.body.id}/publish`, "POST")).status).toBe(200);
    const list = await publicList();
    expect(list.find((c) => c.slug === "draft-teased")).toMatchObject({ teaser: `${canary} chapter.` });
    expect(list.find((c) => c.slug === "live-teased")).toMatchObject({ teaser: `${canary} edit.` });
  });

  it("refuses a teaser that is too long or not text, naming the field, and saves nothing", async () => {
    const long = await call("/api/admin/chapters", "POST", chapter({ slug: "too-long", teaser: "x".repeat(301) }));
    expect(long.status).toBe(400);
    expect(long.body.error.message).toContain("Teaser must be at most 300 characters");
    const wrong = await call("/api/admin/chapters", "POST", chapter({ slug: "not-text", teaser: 42 }));
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.message).toMatch(/Teaser/);
    expect((await publicList()).map((c) => c.slug)).not.toContain("too-long");
    expect((await call("/api/admin/chapters", "POST", chapter({ slug: "just-fits", teaser: "y".repeat(300) }))).status).toBe(201);
  });
});
