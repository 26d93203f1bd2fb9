/**
 * The members' notebook at scale (issue 32), on PostgreSQL. Figures, never pass/fail.
 *
 * - 500 codes x 200 notes (100,000 sealed notes): 499 members' notebooks filled in SQL with
 *   ciphertext-sized rows, and one member's 200 notes written as a browser writes them (sealed
 *   with src/lib/notebook/crypto.ts and saved through PUT /api/notebook/notes/:id).
 * - A chapter's notes: the very statement GET /api/notebook/notes?chapter= runs
 *   (chapterNotesStatement), with EXPLAIN (ANALYZE, BUFFERS): the plan, whether it reads the notes
 *   through their primary key, and the median of 7 runs in-process and through the product.
 * - /profile with those 200 notes, in headless Chromium: from the all-notes answer's last byte to
 *   the frame with 200 notes listed (fetching the key from IndexedDB, decrypting, rendering), and
 *   from navigation to that frame; the median of 5 reloads after the notebook was opened once.
 *
 * A scratch database is created on the server of `baseUrl` and dropped afterwards.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { seed } from "../../src/server/content/seed.ts";
import { openDatabase } from "../../src/server/db/client.ts";
import { sql } from "../../src/server/db/orm.ts";
import { chapterNotes, chapterNotesStatement } from "../../src/server/notebook/notebook.ts";
import { issueAccessCode } from "../../src/server/repositories/access-codes.ts";
import { createNotebook, sealNote } from "../../src/lib/notebook/crypto.ts";
import { createScratchDatabase } from "../../tests/support/databases.ts";
import { startProduct } from "../../tests/support/product-server.ts";
import { ensureChromium, FULL_BROWSER } from "../../tests/support/chromium.ts";
import { medianMs, medianOf, round } from "./timing.ts";

const CODES = 500;
const NOTES = 200;
const CHAPTERS = 20;
const RELOADS = 5;
const PASSPHRASE = "the bench's own passphrase";


/** A note as a member might write one: a few hundred characters, each note its own. */
const noteText = (i: number) =>
  `Day ${i + 1}. The voice said "you are behind again" twice before nine, both times while I read the news. ` +
  `I wrote it down word for word, then asked what it wanted: mostly to be early for something nobody asked me to be early for. ` +
  `Tomorrow: notice it before the second cup of coffee, not after. Entry ${i + 1} of the ledger.`;

/** The bench's chapters (CHAPTERS x NOTES/CHAPTERS subsections, Operator) and 499 other members' full notebooks. */
async function seedBook(db: Awaited<ReturnType<typeof openDatabase>>["db"]): Promise<void> {
  const perChapter = NOTES / CHAPTERS;
  await db.execute(sql`
    INSERT INTO chapters (slug, title, content, "order", level)
    SELECT format('bench-notes-%s', lpad(n::text, 2, '0')), format('Field notes %s', n), 'A chapter to write beside.', 1000 + n, 'Operator'
    FROM generate_series(1, ${CHAPTERS}::integer) AS n`);
  await db.execute(sql`
    INSERT INTO subsections (chapter_id, slug, title, content, "order")
    SELECT c.id, format('entry-%s', k), format('Entry %s', k), 'Write what the voice said, word for word.', k
    FROM chapters c CROSS JOIN generate_series(1, ${perChapter}::integer) AS k
    WHERE c.slug LIKE 'bench-notes-%'`);
  await db.execute(sql`
    INSERT INTO access_codes (login, password, level)
    SELECT format('bench-notebook-%s', lpad(n::text, 3, '0')), 'scrypt$bench', 'Architect'
    FROM generate_series(1, ${CODES - 1}::integer) AS n`);
  await db.execute(sql`
    INSERT INTO notebooks (access_code_id, salt, iterations, by_passphrase, by_recovery)
    SELECT id, 'c2FsdA==', 600000, 'd3JhcA==', 'd3JhcA==' FROM access_codes WHERE login LIKE 'bench-notebook-%'`);
  // Ciphertext-sized rows: 16-byte IV in base64, ~700 characters of base64 each.
  await db.execute(sql`
    INSERT INTO notes (access_code_id, subsection_id, version, iv, ciphertext)
    SELECT n.access_code_id, s.id, 1 + (s.id % 5), 'AAAAAAAAAAAAAAAA', repeat(md5(n.access_code_id::text || '.' || s.id::text), 22)
    FROM notebooks n
    CROSS JOIN subsections s
    JOIN chapters c ON c.id = s.chapter_id AND c.slug LIKE 'bench-notes-%'`);
}

export async function notebookScale(baseUrl: string, log: (line: string) => void): Promise<Record<string, number | string | boolean>> {
  const scratch = await createScratchDatabase(baseUrl);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "sb-notebook-"));
  try {
    const handle = await openDatabase({ driver: "pg", url: scratch.url });
    let member: { login: string; password: string; id: number };
    try {
      await handle.migrate();
      await seed(handle.db);
      await seedBook(handle.db);
      const issued = await issueAccessCode(handle.db, { level: "Architect" });
      const row = (await handle.db.execute(sql`SELECT id FROM access_codes WHERE login = ${issued.login}`)) as unknown as { rows: Array<{ id: number }> };
      member = { ...issued, id: Number(row.rows[0]!.id) };
    } finally {
      await handle.close();
    }

    const server = await startProduct({ DATA_DIR: work, SITE_DIR: path.join(work, "site"), DATABASE_URL: scratch.url });
    try {
      const json = { "content-type": "application/json" };
      const login = await fetch(`${server.url}/api/auth/validate`, { method: "POST", headers: json, body: JSON.stringify({ login: member.login, password: member.password }) });
      await login.arrayBuffer();
      if (login.status !== 200) throw new Error(`POST /api/auth/validate answered ${login.status}`);
      const cookie = login.headers.getSetCookie()[0]!.split(";")[0]!;
      const headers = { ...json, cookie };

      // The member's notebook and 200 notes, sealed as the browser seals them.
      const { key, wrapped } = await createNotebook(PASSPHRASE);
      const created = await fetch(`${server.url}/api/notebook`, { method: "POST", headers, body: JSON.stringify(wrapped) });
      if (created.status !== 201 && created.status !== 200) throw new Error(`POST /api/notebook answered ${created.status}: ${await created.text()}`);
      const notebook = ((await created.json()) as { notebook: { id: string } }).notebook.id;
      const chapterList = (await (await fetch(`${server.url}/api/chapters`)).json()) as Array<{ id: number; slug: string; title: string }>;
      const benchChapters = chapterList.filter((c) => c.slug.startsWith("bench-notes-"));
      let written = 0;
      for (const chapter of benchChapters) {
        const parts = (await (await fetch(`${server.url}/api/chapters/${chapter.id}/subsections`, { headers })).json()) as Array<{ id: number; slug: string; title: string }>;
        for (const part of parts) {
          const sealed = await sealNote(key, { notebook, subsectionId: part.id, version: 1 }, { text: noteText(written), title: part.title, chapterSlug: chapter.slug, chapterTitle: chapter.title, sectionSlug: part.slug, level: "Operator" });
          const saved = await fetch(`${server.url}/api/notebook/notes/${part.id}`, { method: "PUT", headers, body: JSON.stringify({ notebook, version: 0, ...sealed }) });
          if (saved.status !== 200) throw new Error(`PUT /api/notebook/notes/${part.id} answered ${saved.status}: ${await saved.text()}`);
          await saved.arrayBuffer();
          written++;
        }
      }
      if (written !== NOTES) throw new Error(`Wrote ${written} notes; expected ${NOTES}.`);

      // A chapter's notes: the API's statement, explained and timed.
      const target = benchChapters[CHAPTERS >> 1]!.slug;
      const db = await openDatabase({ driver: "pg", url: scratch.url });
      let plan: string[];
      let totalNotes: number;
      let statementMs: number;
      try {
        await db.db.execute(sql`ANALYZE`);
        totalNotes = Number(((await db.db.execute(sql`SELECT count(*)::integer AS n FROM notes`)) as unknown as { rows: Array<{ n: number }> }).rows[0]!.n);
        const explained = (await db.db.execute(sql`EXPLAIN (ANALYZE, BUFFERS) ${chapterNotesStatement(member.id, target)}`)) as unknown as { rows: Array<Record<string, string>> };
        plan = explained.rows.map((r) => Object.values(r)[0]!);
        statementMs = await medianMs(() => chapterNotes(db.db, member.id, target));
      } finally {
        await db.close();
      }
      const byPrimaryKey = plan.some((line) => /Index (Only )?Scan using notes_access_code_id_subsection_id_pk/.test(line));
      const httpMs = await medianMs(async () => {
        const response = await fetch(`${server.url}/api/notebook/notes?chapter=${target}`, { headers });
        if (response.status !== 200) throw new Error(`GET /api/notebook/notes?chapter= answered ${response.status}`);
        await response.arrayBuffer();
      });

      // /profile in Chromium: open the notebook once (the passphrase), then reload and time the listing.
      const browser = await chromium.launch({ executablePath: ensureChromium(FULL_BROWSER), args: ["--no-sandbox", "--disable-gpu"] });
      const listed: Array<{ afterAnswerMs: number; fromNavigationMs: number }> = [];
      try {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        // Signed in as the member's browser is (the session and the cookie that says one may be held).
        const signedIn = await context.request.post(`${server.url}/api/auth/validate`, { data: { login: member.login, password: member.password } });
        if (signedIn.status() !== 200) throw new Error(`POST /api/auth/validate answered ${signedIn.status()} in the browser`);
        await context.addInitScript(`{
          const count = ${NOTES};
          new MutationObserver(() => {
            if (window.__listed === undefined && document.querySelectorAll('ol[aria-label="My notes"] > li').length >= count) {
              requestAnimationFrame(() => (window.__listed ??= performance.now()));
            }
          }).observe(document, { subtree: true, childList: true });
        }`);
        const page = await context.newPage();
        await page.goto(`${server.url}/profile`);
        const unlock = page.getByRole("dialog", { name: "Open your notebook" });
        await page.getByRole("button", { name: "Open my notebook" }).click();
        await unlock.getByLabel("Notebook passphrase").fill(PASSPHRASE);
        await unlock.getByRole("button", { name: "Open my notebook" }).click();
        await page.waitForFunction(() => (window as unknown as { __listed?: number }).__listed !== undefined, null, { timeout: 60_000 });
        for (let i = 0; i < RELOADS; i++) {
          await page.reload();
          await page.waitForFunction(() => (window as unknown as { __listed?: number }).__listed !== undefined, null, { timeout: 60_000 });
          listed.push(
            await page.evaluate(() => {
              const at = (window as unknown as { __listed: number }).__listed;
              const answer = performance
                .getEntriesByType("resource")
                .filter((entry) => new URL(entry.name).pathname === "/api/notebook/notes" && !new URL(entry.name).search)
                .map((entry) => (entry as PerformanceResourceTiming).responseEnd)[0];
              if (answer === undefined) throw new Error("The page never asked for its notes.");
              return { afterAnswerMs: at - answer, fromNavigationMs: at };
            }),
          );
        }
      } finally {
        await browser.close();
      }

      const figures = {
        codes: CODES,
        notes: totalNotes,
        chapterNotesByPrimaryKey: byPrimaryKey,
        chapterNotesStatementMs: statementMs,
        chapterNotesHttpMs: httpMs,
        profileListedAfterAnswerMs: round(medianOf(listed.map((l) => l.afterAnswerMs))),
        profileListedMaxAfterAnswerMs: round(Math.max(...listed.map((l) => l.afterAnswerMs))),
        profileListedFromNavigationMs: round(medianOf(listed.map((l) => l.fromNavigationMs))),
      };
      log(`Notebook: EXPLAIN (ANALYZE, BUFFERS) of a chapter's notes (${target}), ${totalNotes.toLocaleString("en-US")} notes:`);
      for (const line of plan) log(`  ${line}`);
      log(notebookLine(figures));
      return figures;
    } finally {
      await server.stop();
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
    await scratch.drop();
  }
}

/** The summary line, for bench/notebook.ts and bench/run.ts. */
export function notebookLine(f: Record<string, number | string | boolean | undefined>): string {
  return (
    `Notebook, ${f.codes} codes x ${NOTES} notes (${Number(f.notes).toLocaleString("en-US")}) on PostgreSQL: a chapter's notes in one statement ` +
    `${f.chapterNotesByPrimaryKey ? "through the notes' primary key" : "NOT through the notes' primary key"}, ${f.chapterNotesStatementMs} ms median, ` +
    `${f.chapterNotesHttpMs} ms through the API; /profile with ${NOTES} notes decrypted and listed ${f.profileListedAfterAnswerMs} ms ` +
    `after the notes arrive (max ${f.profileListedMaxAfterAnswerMs}; target <= 300), ${f.profileListedFromNavigationMs} ms from navigation`
  );
}
