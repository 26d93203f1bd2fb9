/**
 * Property: every /api route answers random and malformed methods, bodies, content types, query
 * strings, path parameters and headers, anonymous or signed in as a reader or an admin, with
 * something other than a 5xx, never a crash; and every 4xx is a JSON error {error:{code,message}}.
 * The routes come from the API's route table (tests/support/routes.ts), so a new route is fuzzed
 * without editing this file.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../src/server/auth/password.ts";
import { issueSession } from "../../src/server/auth/session.ts";
import { cookieName } from "../../src/server/auth/cookies.ts";
import { seed } from "../../src/server/content/seed.ts";
import { adminAccounts } from "../../src/server/db/schema.ts";
import { apiClient, type Api } from "../support/api.ts";
import { loginAs } from "../support/auth.ts";
import { databaseTargets, type TestDatabase } from "../support/databases.ts";
import { API_PATTERNS } from "../support/routes.ts";

const RUNS = Number(process.env.FUZZ_RUNS || 1000);

const param = fc.oneof(
  fc.constantFrom("1", "0", "-1", "999999999999", "abc", "signal-and-noise", "the-belief-audit", "Architect1000", "%00", "..%2F..", "%E0%A4%A", "x".repeat(300)),
  fc.string({ maxLength: 40 }).map(encodeURIComponent),
  fc.uuid(),
);
const body = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc.record({
    login: fc.oneof(fc.string(), fc.integer()),
    password: fc.oneof(fc.string(), fc.constant(null)),
    sessionId: fc.oneof(fc.uuid(), fc.string()),
    questionNumber: fc.oneof(fc.integer({ min: -5, max: 20 }), fc.string()),
    answer: fc.oneof(fc.constantFrom("A", "B", "C", "D", "E"), fc.string()),
    name: fc.string(),
    email: fc.string(),
    slug: fc.string(),
    title: fc.string(),
    content: fc.string(),
    level: fc.constantFrom("Operator", "Architect", "Mastermind", "Wizard", ""),
    readingTime: fc.oneof(fc.integer(), fc.string(), fc.double()),
    order: fc.oneof(fc.integer(), fc.string()),
    chapterId: fc.oneof(fc.integer(), fc.string()),
    chapterIds: fc.array(fc.oneof(fc.integer(), fc.string()), { maxLength: 5 }),
    subsectionIds: fc.array(fc.integer(), { maxLength: 5 }),
    active: fc.oneof(fc.boolean(), fc.string()),
  }, { requiredKeys: [] }).map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
  fc.constantFrom("", "{", "null", "[]", "\"x\"", "{\"__proto__\":{\"admin\":true}}", "x".repeat(70_000)),
);
const contentType = fc.constantFrom(
  "application/json", "application/json; charset=utf-8", "text/plain", "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=zzz", "multipart/form-data", "image/png", "garbage/!!", undefined,
);
const method = fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS");
const origin = fc.constantFrom(undefined, "http://localhost", "https://evil.example", "null");
const query = fc.oneof(fc.constant(""), fc.string({ maxLength: 30 }).map((q) => `?${encodeURIComponent(q)}`), fc.constant("?a=1&a=2&__proto__=x"));

describe.each(databaseTargets().slice(0, 1))("fuzzing every API route on $name", (target) => {
  let database: TestDatabase;
  let api: Api;
  const patterns = API_PATTERNS.filter((pattern) => pattern.startsWith("/api/"));
  const cookies: Array<string | undefined> = [undefined, "sb_reader=garbage.token.here"];

  beforeAll(async () => {
    database = await target.open();
    await seed(database.db);
    api = await apiClient(database);
    cookies.push((await loginAs(api, database.db, "Architect")).cookie);
    const [admin] = await database.db
      .insert(adminAccounts)
      .values({ email: "fuzz@example.com", passwordHash: await hashPassword("a long enough password") })
      .returning();
    const session = await issueSession(database.db, "admin", { adminId: admin!.id });
    cookies.push(`${cookieName("admin")}=${session.token}`);
  }, 120_000);
  afterAll(() => database?.dispose());

  it("never answers 5xx, and answers every 4xx with a JSON error", async () => {
    expect(patterns.length).toBeGreaterThan(10);
    await fc.assert(
      fc.asyncProperty(
        fc.nat(), fc.array(param, { minLength: 3, maxLength: 3 }), method, body, contentType, origin, query, fc.nat(),
        async (which, params, verb, payload, type, from, search, who) => {
          const pattern = patterns[which % patterns.length]!;
          let i = 0;
          const pathname = pattern.replace(/:\w+/g, () => params[i++ % params.length]!).replace("*", params[0]!);
          const headers: Record<string, string> = {};
          if (type) headers["content-type"] = type;
          if (from) headers.origin = from;
          const cookie = cookies[who % cookies.length];
          if (cookie) headers.cookie = cookie;
          const hasBody = verb !== "GET" && verb !== "HEAD";
          const response = await api(pathname + search, { method: verb, headers, body: hasBody ? payload : undefined });
          const label = `${verb} ${pathname}${search} (${type}, ${cookie ? "signed in" : "anonymous"})`;
          expect(response.status, label).toBeLessThan(500);
          if (response.status >= 400 && verb !== "HEAD") {
            expect(response.headers.get("content-type"), label).toMatch(/^application\/json/);
            const error = ((await response.json()) as { error?: { code?: unknown; message?: unknown } }).error;
            expect(typeof error?.code, label).toBe("string");
            expect(typeof error?.message, label).toBe("string");
          } else {
            await response.arrayBuffer();
          }
        },
      ),
      { numRuns: RUNS },
    );
  }, 600_000);
});
