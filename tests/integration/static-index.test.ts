import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "../../src/server/db/orm.ts";
import { openDatabase, type DatabaseHandle } from "../../src/server/db/client.ts";
import { chapters, subsections } from "../../src/server/db/schema.ts";
import { createChapter, createSubsection } from "../support/factories.ts";
import { snapshotStamp, takeSnapshot } from "../../src/server/build/snapshot.ts";
import { operatorRecords } from "../../src/server/build/search-records.ts";

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openDatabase({ driver: "pglite", dataDir: null });
  await database.migrate();
});
afterAll(() => database?.close());

describe("the static search index follows the open level", () => {
  it("a text edit of the open level or a subsection moved out of it changes the snapshot (a build follows); a locked level's edit does not", async () => {
    const open = await createChapter(database.db, { level: "Operator", slug: "open-one", title: "Open One", content: "## Begin\n\nOpen **words**." });
    const locked = await createChapter(database.db, { level: "Mastermind", slug: "locked-one", content: "Locked words." });
    const part = await createSubsection(database.db, open.id, { slug: "moving", title: "Moving", content: "A part that will be [locked](cta:schedule)." });
    const stamp = async () => snapshotStamp(await takeSnapshot(database.db));

    const before = await stamp();
    const records = await operatorRecords(database.db);
    // Each record carries its chapter's text stamp (the browser compares it with the live list's).
    const textStamp = records[0]!.meta.stamp;
    expect(textStamp).toMatch(/^[0-9a-f]{12}$/);
    expect(records).toEqual([
      { url: "/open-one", content: "Open One Begin Open words.", language: "en", meta: { title: "Open One", chapter: "Open One", level: "Operator", stamp: textStamp } },
      { url: "/open-one#moving", content: "Moving A part that will be locked.", language: "en", meta: { title: "Moving", chapter: "Open One", level: "Operator", stamp: textStamp } },
    ]);

    // A locked chapter's text is in no record: editing it needs no build.
    await database.db.update(chapters).set({ content: "Other locked words." }).where(eq(chapters.id, locked.id));
    expect(await stamp()).toBe(before);

    // New words of the open level must become searchable: the stamp changes, so a build follows.
    await database.db.update(subsections).set({ content: "Edited words." }).where(eq(subsections.id, part.id));
    const edited = await stamp();
    expect(edited).not.toBe(before);
    expect((await takeSnapshot(database.db)).searchRecords.map((r) => r.content)).toContain("Moving Edited words.");

    await database.db.update(subsections).set({ chapterId: locked.id }).where(eq(subsections.id, part.id));
    expect(await stamp()).not.toBe(edited);
    expect((await operatorRecords(database.db)).map((r) => r.url)).toEqual(["/open-one"]);
  });
});
