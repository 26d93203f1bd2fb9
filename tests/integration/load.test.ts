/**
 * Load without loss: the real server on PostgreSQL under concurrent readers, scan takers (each
 * answer sent, some sent twice) and an admin editing. Afterwards every answer is stored exactly
 * once, every edit is there, and no request that should succeed failed. Prints the counts.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readConfig, useConfig } from "../../src/server/config.ts";
import { hashPassword } from "../../src/server/auth/password.ts";
import { issueSession } from "../../src/server/auth/session.ts";
import { resetSessionKey } from "../../src/server/auth/secret.ts";
import { cookieName } from "../../src/server/auth/cookies.ts";
import { seed } from "../../src/server/content/seed.ts";
import { openDatabase, type DatabaseHandle } from "../../src/server/db/client.ts";
import { adminAccounts } from "../../src/server/db/schema.ts";
import { listChapters } from "../../src/server/repositories/chapters.ts";
import { createScratchDatabase, testDatabaseUrl } from "../support/databases.ts";
import { startProduct, type ProductServer } from "../support/product-server.ts";

const baseUrl = testDatabaseUrl();
const secret = randomBytes(48).toString("base64url");
const READERS = 8;
const READS_EACH = 25;
const SCANS = 12;
const EDITS = 12;

describe.skipIf(!baseUrl)("load without loss", () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let direct: DatabaseHandle;
  let dataDir: string;
  let server: ProductServer;
  let url: string;
  let adminCookie: string;

  beforeAll(async () => {
    scratch = await createScratchDatabase(baseUrl!);
    direct = await openDatabase({ driver: "pg", url: scratch.url });
    await direct.migrate();
    await seed(direct.db);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sb-load-"));
    useConfig(readConfig({ ...process.env, SESSION_SECRET: secret, DATA_DIR: dataDir }));
    resetSessionKey();
    const [admin] = await direct.db.insert(adminAccounts).values({ email: "load@example.com", passwordHash: await hashPassword("a long enough password") }).returning();
    adminCookie = `${cookieName("admin")}=${(await issueSession(direct.db, "admin", { adminId: admin!.id })).token}`;
    server = await startProduct({ DATABASE_URL: scratch.url, DATA_DIR: dataDir, SITE_DIR: path.join(dataDir, "site"), SESSION_SECRET: secret });
    url = server.url;
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await direct?.close();
    await scratch?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("loses and duplicates nothing, and fails no request that should succeed", async () => {
    const failures: string[] = [];
    let requests = 0;
    const call = async (pathname: string, init: RequestInit & { json?: unknown } = {}, expected = [200, 201, 204]) => {
      const headers = new Headers(init.headers);
      if (init.json !== undefined) headers.set("content-type", "application/json");
      requests++;
      const response = await fetch(`${url}${pathname}`, { ...init, headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.body });
      const text = await response.text();
      if (!expected.includes(response.status)) failures.push(`${init.method ?? "GET"} ${pathname}: ${response.status} ${text.slice(0, 120)}`);
      return text ? (JSON.parse(text.startsWith("<") ? "null" : text) as unknown) : null;
    };

    const operator = await listChapters(direct.db, ["Operator"]);
    const target = operator[1]!;

    const readers = Array.from({ length: READERS }, async (_, r) => {
      for (let i = 0; i < READS_EACH; i++) {
        const chapter = operator[(r + i) % operator.length]!;
        await call(["/api/chapters", `/api/chapters/${chapter.slug}`, `/api/chapters/${chapter.id}/subsections`, `/${chapter.slug}`][i % 4]!);
      }
    });

    const sent = new Map<string, Map<number, string>>();
    const scans = Array.from({ length: SCANS }, async (_, s) => {
      const { id } = (await call("/api/assessment/session", { method: "POST", json: {} })) as { id: string };
      const answers = new Map<number, string>();
      for (let q = 1; q <= 15; q++) {
        const answer = "ABCD"[(s + q) % 4]!;
        answers.set(q, answer);
        await call("/api/assessment/response", { method: "POST", json: { sessionId: id, questionNumber: q, answer } });
        // A retried save (a lost reply): must not duplicate.
        if (q % 5 === 0) await call("/api/assessment/response", { method: "POST", json: { sessionId: id, questionNumber: q, answer } });
      }
      sent.set(id, answers);
      await call(`/api/assessment/session/${id}/complete`, { method: "POST", json: { name: `Taker ${s}`, email: `taker${s}@example.com` } });
    });

    const createdTitles: string[] = [];
    const admin = (async () => {
      const headers = { cookie: adminCookie };
      for (let e = 0; e < EDITS; e++) {
        const current = (await call(`/api/chapters/${target.slug}`)) as { content: string; readingTime: number; order: number; level: string };
        await call(`/api/admin/chapters/${target.id}`, {
          method: "PUT",
          headers,
          json: { slug: target.slug, title: `Edited title ${e}`, content: current.content, readingTime: current.readingTime, order: current.order, level: "Operator" },
        });
        const title = `Added under load ${e}`;
        createdTitles.push(title);
        await call("/api/admin/subsections", { method: "POST", headers, json: { chapterId: target.id, title, content: `Written while others read, number ${e}.` } });
      }
    })();

    const started = performance.now();
    await Promise.all([...readers, ...scans, admin]);
    const seconds = (performance.now() - started) / 1000;

    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    try {
      let lost = 0;
      let duplicated = 0;
      let wrong = 0;
      for (const [id, answers] of sent) {
        const { rows } = await client.query("SELECT question_number, answer FROM assessment_responses WHERE session_id = $1", [id]);
        const stored = new Map<number, string[]>();
        for (const row of rows) stored.set(row.question_number, [...(stored.get(row.question_number) ?? []), row.answer]);
        for (const [q, answer] of answers) {
          const got = stored.get(q) ?? [];
          if (got.length === 0) lost++;
          if (got.length > 1) duplicated++;
          if (got.length === 1 && got[0] !== answer) wrong++;
        }
      }
      const { rows: completed } = await client.query("SELECT count(*)::int AS n FROM assessment_sessions WHERE completed = 'true'");
      const { rows: title } = await client.query("SELECT title FROM chapters WHERE id = $1", [target.id]);
      const { rows: parts } = await client.query("SELECT title FROM subsections WHERE chapter_id = $1 AND deleted_at IS NULL", [target.id]);
      const partTitles = parts.map((p) => p.title as string);
      const missingEdits = createdTitles.filter((t) => !partTitles.includes(t)).length;
      const duplicatedEdits = createdTitles.filter((t) => partTitles.filter((p) => p === t).length > 1).length;
      console.log(
        `load: ${requests} requests in ${seconds.toFixed(1)} s; failed ${failures.length}; answers sent ${SCANS * 15} (+${SCANS * 3} retried): lost ${lost}, duplicated ${duplicated}, wrong ${wrong}; scans completed ${completed[0].n}/${SCANS}; admin subsections missing ${missingEdits}, duplicated ${duplicatedEdits}`,
      );
      expect(failures).toEqual([]);
      expect({ lost, duplicated, wrong }).toEqual({ lost: 0, duplicated: 0, wrong: 0 });
      expect(completed[0].n).toBe(SCANS);
      expect(title[0].title).toBe(`Edited title ${EDITS - 1}`);
      expect({ missingEdits, duplicatedEdits }).toEqual({ missingEdits: 0, duplicatedEdits: 0 });
    } finally {
      await client.end();
    }
  }, 180_000);
});
