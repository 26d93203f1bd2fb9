/**
 * The notebook and the direct line are private by construction (issues 32, 42 and 43): a sentence
 * typed into a note, one a member sends the operator and one the operator sends back are nowhere
 * the server can look, only in what the member downloads, and nowhere in the browser once the
 * member signs out. On a server of this test's own: once it stops, every table of its database is
 * read whole, and a backup is taken; its log, every answer of the admin API (but a conversation's
 * own ciphertext) and every webhook payload are searched too, and every storage of the member's browser.
 */
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "./page-test.ts";
import { adminCredentials } from "./admin-fixtures.ts";
import { everyStorage, firstChapter, note, startNotebook, write } from "./notebook-fixtures.ts";
import { messagesTab, sendFromMessages } from "./messages-fixtures.ts";
import { startReceiver } from "../support/webhook-receiver.ts";
import { hydrated } from "./reader-helpers.ts";
import { startWorkerSite } from "./server.ts";
import { API_ROUTES } from "../../src/server/api/routes.ts";
import { openDatabase } from "../../src/server/db/client.ts";
import { backupDatabase } from "../../src/server/backup/backup.ts";
import { dumpEveryTable } from "../support/every-table.ts";

const CANARY = "The blue heron keeps its counsel at the mill pond";
const ASKED = "Does the heron in the reeds count as a reaction";
const ANSWERED = "Only if the heron moves before you decide to look";

test("a sentence written into a note, and messages both ways, are in no table, no backup, no log, no webhook payload, no admin answer and, once signed out, no storage of the browser; they are in the member's Markdown download", async ({ browser }, testInfo) => {
  test.setTimeout(180_000);
  const receiver = await startReceiver();
  // (Slots from 60: the seed sites take the ports from E2E_PORT + 50, one a worker: server.ts.)
  const own = await startWorkerSite(60 + testInfo.parallelIndex, testInfo.workerIndex);
  try {
    const admin = await browser.newContext({ baseURL: own.site.url });
    expect((await admin.request.post("/api/admin/login", { data: adminCredentials() })).status()).toBe(200);
    const issued = await admin.request.post("/api/admin/access-codes", { data: { level: "Architect" } });
    const code = (await issued.json()) as { login: string; password: string };

    const member = await browser.newContext({ baseURL: own.site.url });
    const page = await member.newPage();
    expect((await page.request.post("/api/auth/validate", { data: code })).status()).toBe(200);
    const chapter = await firstChapter(page);
    await page.goto(`/${chapter.slug}`);
    await note(page).toggle.click();
    await startNotebook(page);
    await write(note(page).box, note(page).status, `${CANARY}, and so do I.`);

    // The direct line: a webhook listening, the operator's key made in the panel, a message each way.
    expect((await admin.request.post("/api/admin/webhooks", { data: { url: receiver.url } })).status()).toBe(201);
    const panel = await messagesTab(browser, { width: 1280, height: 800 }, own.site.url);
    await page.goto("/messages");
    await hydrated(page);
    await sendFromMessages(page, `${ASKED}?`);
    await panel.getByRole("button", { name: "Refresh" }).click();
    await panel.getByRole("list", { name: "Conversations" }).getByRole("listitem").filter({ hasText: code.login }).getByRole("button").click();
    await panel.getByLabel("Your reply").fill(`${ANSWERED}.`);
    await panel.getByRole("button", { name: "Send", exact: true }).click();
    await expect(panel.getByRole("list", { name: "Messages" })).toContainText(ANSWERED);
    await panel.context().close();
    await receiver.waitFor(1, 15_000);

    // The member's own download holds it.
    await page.goto("/profile");
    await hydrated(page);
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download as Markdown" }).click()]);
    const taken = fs.readFileSync((await download.path())!, "utf8");
    expect(taken).toContain(CANARY);
    expect(taken).toContain(ASKED);
    expect(taken).toContain(ANSWERED);
    // Signed out: every storage of the browser (cookies, local and session storage, IndexedDB, Cache Storage) is without it.
    await page.getByRole("button", { name: "Exit System" }).click();
    await expect(page.getByRole("heading", { name: "Enter The System" })).toBeVisible();
    const stored = await everyStorage(page);
    expect(stored).not.toContain("heron");
    expect(stored).not.toContain("notebook-keys");

    // Every answer of the admin API (each chapter's subsections and revisions too), and the notebook's count only.
    const chapters = (await (await admin.request.get("/api/admin/chapters")).json()) as Array<{ id: number }>;
    const paths = API_ROUTES.map(([pattern]) => pattern).filter((pattern) => pattern.startsWith("/api/admin/") && !pattern.includes(":"));
    paths.push("/api/admin/webhook-deliveries");
    for (const { id } of chapters) paths.push(`/api/admin/chapters/${id}/subsections`, `/api/admin/chapters/${id}/revisions`);
    paths.push("/api/admin/readers.csv?of=codes", "/api/admin/readers.csv?of=chapters");
    let answered = 0;
    for (const pathname of paths) {
      const answer = await admin.request.get(pathname);
      if (answer.status() === 405) continue;
      answered++;
      expect(await answer.text(), pathname).not.toContain("heron");
    }
    expect(answered).toBeGreaterThan(15);
    const codes = (await (await admin.request.get("/api/admin/access-codes")).json()) as Array<{ login: string; notebookNotes: number | null }>;
    expect(codes.find((c) => c.login === code.login)?.notebookNotes).toBe(1);
    // Every webhook payload: a conversation and a time, never words.
    expect(receiver.received.length).toBeGreaterThanOrEqual(1);
    for (const { body } of receiver.received) {
      expect(JSON.parse(body)).toMatchObject({ event: "message.received" });
      expect(body).not.toContain("heron");
    }
    await admin.close();
    await member.close();
  } finally {
    await own.stop();
    await receiver.close();
  }

  // The server's log, then its database read whole and a backup of it.
  expect(own.output()).not.toContain("heron");
  const database = await openDatabase({ driver: "pglite", dataDir: own.site.dataDir });
  try {
    const dump = await dumpEveryTable(database.db);
    expect(dump.notes, "the note is kept, sealed").toHaveLength(1);
    expect(dump.messages, "the messages are kept, sealed").toHaveLength(2);
    expect(JSON.stringify(dump)).not.toContain("heron");
    const file = path.join(own.site.dataDir, "canary-backup.json");
    await backupDatabase(database.db, "pglite", file);
    const backup = fs.readFileSync(file, "utf8");
    expect(backup).toContain('"notes"');
    expect(backup).not.toContain("heron");
  } finally {
    await database.close();
  }
});
