import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "../../src/server/db/orm.ts";
import { openDatabase, type DatabaseHandle } from "../../src/server/db/client.ts";
import { subsections } from "../../src/server/db/schema.ts";
import { createChapter, createSubsection } from "../support/factories.ts";
import { snapshotStamp, takeSnapshot } from "../../src/server/build/snapshot.ts";
import { operatorRecords } from "../../src/server/build/static-index.ts";

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openDatabase({ driver: "pglite", dataDir: null });
  await database.migrate();
});
afterAll(() => database?.close());

describe("the static search index follows the open level", () => {
  it("a subsection moved out of an Operator chapter changes the snapshot (a build follows) and leaves the records; a text edit does not", async () => {
    const open = await createChapter(database.db, { level: "Operator", slug: "open-one", title: "Open One", content: "## Begin\n\nOpen **words**." });
    const locked = await createChapter(database.db, { level: "Mastermind", slug: "locked-one", content: "Locked words." });
    const part = await createSubsection(database.db, open.id, { slug: "moving", title: "Moving", content: "A part that will be [locked](cta:schedule)." });
    const stamp = async () => snapshotStamp(await takeSnapshot(database.db));

    const before = await stamp();
    expect(await operatorRecords(database.db)).toEqual([
      { url: "/open-one", content: "Open One Begin Open words.", language: "en", meta: { title: "Open One", chapter: "Open One", level: "Operator" } },
      { url: "/open-one#moving", content: "Moving A part that will be locked.", language: "en", meta: { title: "Moving", chapter: "Open One", level: "Operator" } },
    ]);

    await database.db.update(subsections).set({ content: "Edited words." }).where(eq(subsections.id, part.id));
    expect(await stamp()).toBe(before);

    await database.db.update(subsections).set({ chapterId: locked.id }).where(eq(subsections.id, part.id));
    expect(await stamp()).not.toBe(before);
    expect((await operatorRecords(database.db)).map((r) => r.url)).toEqual(["/open-one"]);
  });
});
