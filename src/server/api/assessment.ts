/**
 * The scan's API (SPEC.md section 7):
 *   POST /api/assessment/session                 starts a session, answers { id }
 *   POST /api/assessment/response                stores one answer (again: replaces it)
 *   POST /api/assessment/session/{id}/complete   scores the stored answers, answers { totalScore, level, description, resultUrl }
 *   GET  /api/assessment/result/{token}          the result a private link names: { totalScore, level, description }
 *
 * Decisions:
 * - The session id is a random UUID, the only key to a session. The creation payload's fields
 *   (userId, completed, score, scoreBreakdown) are accepted for compatibility and ignored: the
 *   server alone decides them, so no client can choose its score or claim a user.
 * - Creating sessions is limited to SESSION_LIMIT per client address (counted in the database, so
 *   it holds across instances); each session holds at most 15 answers, so a script cannot fill
 *   the database.
 * - Completing twice is idempotent: the second call changes nothing (name, email, score and time
 *   stay as first stored) and answers the stored result again. A reader whose first completion
 *   succeeded but whose connection dropped before the answer arrived can then still see their
 *   result by trying again, which a 409 would deny them.
 * - Answering a completed session is 409: its answers are the basis of a stored result.
 * - A completion queues the scan for every lead webhook in its own transaction, and tries them at
 *   once after the answer is sent (never delaying it); the queue retries what fails.
 * - A result link answers only the result: no name, email, answers or times. It is private
 *   (no-store, noindex); an unknown token is 404.
 */
import { z } from "../../lib/zod.ts";
import { contactSchema } from "../../lib/assessment/contact.ts";
import { answerSchema, questionNumberSchema } from "../../lib/assessment/model.ts";
import { take, type Limit } from "../access/rate-limit.ts";
import { loadAssessment } from "../assessment/content.ts";
import { isResultToken } from "../assessment/result-link.ts";
import { completeScanSession, createScanSession, resultByToken, saveScanAnswer } from "../assessment/scans.ts";
import { database, keepConnectionUntil } from "../db/index.ts";
import { workQueue } from "../leads/delivery-queue.ts";
import { siteAddress, webhooksInProduction } from "../leads/environment.ts";
import { deferAfterResponse } from "../runtime/request-scope.ts";
import { HttpError, conflict, notFound } from "../http/errors.ts";
import { clientAddress, readJson } from "../http/request.ts";
import { json, route } from "../http/respond.ts";

/** Enough for a household or an office behind one address retaking the scan; too few to fill a table. */
export const SESSION_LIMIT: Limit = { bucket: "assessment-session", max: 30, windowMs: 10 * 60 * 1000 };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const sessionPayload = z.looseObject({
  userId: z.unknown().optional(),
  completed: z.unknown().optional(),
  score: z.unknown().optional(),
  scoreBreakdown: z.unknown().optional(),
});

const responsePayload = z.object({
  sessionId: z.string({ error: "is required" }).regex(UUID, "must be the id answered by POST /api/assessment/session"),
  questionNumber: questionNumberSchema,
  answer: answerSchema,
});

const unknownSession = () => notFound("No scan has this id. Start a new scan.");
const completedSession = () =>
  conflict("This scan is already completed, so its answers can no longer change. Start a new scan to answer again.");

/** POST /api/assessment/session */
export const startScan = route({
  POST: async (request) => {
    await readJson(request, sessionPayload, 4 * 1024);
    const db = await database();
    await take(db, SESSION_LIMIT, clientAddress(request));
    const session = await createScanSession(db);
    return json(session, { status: 201 });
  },
});

/** POST /api/assessment/response */
export const saveScanResponse = route({
  POST: async (request) => {
    const { sessionId, questionNumber, answer } = await readJson(request, responsePayload, 4 * 1024);
    const outcome = await saveScanAnswer(await database(), sessionId, questionNumber, answer);
    if (outcome === "not-found") throw unknownSession();
    if (outcome === "completed") throw completedSession();
    return json({ sessionId, questionNumber, answer });
  },
});

/** POST /api/assessment/session/{id}/complete */
export const completeScan = route<[id: string]>({
  POST: async (request, id) => {
    const contact = await readJson(request, contactSchema, 4 * 1024);
    if (!UUID.test(id)) throw unknownSession();
    const db = await database();
    const sessionId = id.toLowerCase();
    const outcome = await completeScanSession(db, loadAssessment(), sessionId, contact, new Date(), { siteUrl: siteAddress() });
    if (outcome.kind === "not-found") throw unknownSession();
    if (outcome.kind === "unanswered") {
      const list = outcome.questions;
      const named = list.length === 1 ? `question ${list[0]} is` : `questions ${list.slice(0, -1).join(", ")} and ${list.at(-1)} are`;
      throw new HttpError(400, "unanswered_questions", `Answer every question before completing: ${named} still unanswered.`);
    }
    if (outcome.queuedDeliveries > 0) {
      // Delivered after the answer; what fails waits in the queue for its retry.
      const delivering = workQueue(db, { sessionId, publicOnly: webhooksInProduction(), budgetMs: 15_000 });
      keepConnectionUntil(delivering.catch(() => {}));
      deferAfterResponse(delivering);
    }
    return json(outcome.result);
  },
});

const PRIVATE = { "cache-control": "private, no-store", "x-robots-tag": "noindex, nofollow", "referrer-policy": "no-referrer" };

/** GET /api/assessment/result/{token} */
export const scanResult = route<[token: string]>({
  GET: async (_request, token) => {
    const result = isResultToken(token) ? await resultByToken(await database(), loadAssessment(), token) : null;
    if (!result) throw new HttpError(404, "not_found", "No result has this link. Check that the whole address was copied.", PRIVATE);
    return json(result, { headers: PRIVATE });
  },
});
