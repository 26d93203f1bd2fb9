/**
 * The scan's storage: sessions, their answers and their results. Every change that depends on a
 * session's state locks that session's row first, so an answer can never slip in while (or after)
 * the session is completed, and two completions can never both write a result.
 */
import { asc, eq, sql } from "../db/orm.ts";
import { scoreScale, type AssessmentContent } from "../../lib/assessment/content.ts";
import { unansweredQuestions, type Answer, type Answers, type ScanResult } from "../../lib/assessment/model.ts";
import { bandFor, scoreAnswers, type ScoreBreakdown } from "../../lib/assessment/scoring.ts";
import type { Database } from "../db/types.ts";
import { assessmentResponses, assessmentSessions } from "../db/schema.ts";
import { leadPayload } from "../leads/payload.ts";
import { queueLeadDeliveries } from "../leads/webhooks.ts";
import { resultPath, resultToken, tokenHash } from "./result-link.ts";

/** Starts an anonymous session; completed, score and breakdown are always the server's own. */
export async function createScanSession(db: Database): Promise<{ id: string }> {
  const [row] = await db.insert(assessmentSessions).values({}).returning({ id: assessmentSessions.id });
  return row!;
}

export type SaveOutcome = "saved" | "not-found" | "completed";

/**
 * Stores the answer to one question, replacing any earlier answer to it: one statement (the hot
 * path of the scan). The session row is read FOR SHARE in the same statement, so answers to one
 * session may be stored side by side, but never while or after it is completed.
 */
export async function saveScanAnswer(db: Database, sessionId: string, questionNumber: number, answer: Answer): Promise<SaveOutcome> {
  const result = (await db.execute(sql`
    WITH session AS (
      SELECT ${assessmentSessions.id} AS id, ${assessmentSessions.completed} AS completed
      FROM ${assessmentSessions} WHERE ${assessmentSessions.id} = ${sessionId} FOR SHARE
    ), saved AS (
      INSERT INTO ${assessmentResponses} ("session_id", "question_number", "answer")
      SELECT id, ${questionNumber}, ${answer} FROM session WHERE completed = 'false'
      ON CONFLICT ("session_id", "question_number") DO UPDATE SET "answer" = excluded."answer", "created_at" = now()
      RETURNING 1
    )
    SELECT (SELECT completed FROM session) AS completed`)) as unknown as { rows: Array<{ completed: string | null }> };
  const completed = result.rows[0]?.completed ?? null;
  if (completed === null) return "not-found";
  return completed === "true" ? "completed" : "saved";
}

/** A result with its private link (src/server/assessment/result-link.ts). */
export type LinkedResult = ScanResult & { resultUrl: string };

export type CompleteOutcome =
  | { kind: "completed"; result: LinkedResult; firstTime: boolean; queuedDeliveries: number }
  | { kind: "not-found" }
  | { kind: "unanswered"; questions: number[] };

/**
 * Completes a session: scores the stored answers and records name, email, score, breakdown and
 * the hash of its result link, and queues its lead webhook deliveries, all in one transaction.
 * Completing an already completed session changes nothing and answers the stored result again
 * (see the API's note on idempotent completion).
 */
export async function completeScanSession(
  db: Database,
  content: AssessmentContent,
  sessionId: string,
  contact: { name: string; email: string },
  now: Date = new Date(),
  { siteUrl = "http://localhost:4321" }: { siteUrl?: string } = {},
): Promise<CompleteOutcome> {
  const token = resultToken(sessionId);
  return db.transaction(async (tx) => {
    const [session] = await tx
      .select({ completed: assessmentSessions.completed, score: assessmentSessions.score, breakdown: assessmentSessions.scoreBreakdown })
      .from(assessmentSessions)
      .where(eq(assessmentSessions.id, sessionId))
      .for("update");
    if (!session) return { kind: "not-found" };
    if (session.completed === "true") {
      const result = { ...storedResult(content, session.score ?? 0, session.breakdown), resultUrl: resultPath(token) };
      return { kind: "completed", result, firstTime: false, queuedDeliveries: 0 };
    }
    const rows = await tx
      .select({ questionNumber: assessmentResponses.questionNumber, answer: assessmentResponses.answer })
      .from(assessmentResponses)
      .where(eq(assessmentResponses.sessionId, sessionId))
      .orderBy(asc(assessmentResponses.questionNumber));
    const answers: Answers = Object.fromEntries(rows.map((r) => [r.questionNumber, r.answer as Answer]));
    const missing = unansweredQuestions(answers);
    if (missing.length > 0) return { kind: "unanswered", questions: missing };
    const { band, ...breakdown } = scoreAnswers(content, answers);
    await tx
      .update(assessmentSessions)
      .set({
        name: contact.name,
        email: contact.email,
        completed: "true",
        score: breakdown.totalScore,
        scoreBreakdown: breakdown satisfies ScoreBreakdown,
        completedAt: now,
        resultTokenHash: tokenHash(token),
      })
      .where(eq(assessmentSessions.id, sessionId));
    const payload = leadPayload(content, { id: sessionId, ...contact, totalScore: breakdown.totalScore, level: band.level, categoryScores: breakdown.categoryScores, answers, completedAt: now }, siteUrl);
    const queuedDeliveries = await queueLeadDeliveries(tx, sessionId, payload, now);
    return {
      kind: "completed",
      result: { totalScore: breakdown.totalScore, level: band.level, description: band.description, scale: scoreScale(content), resultUrl: resultPath(token) },
      firstTime: true,
      queuedDeliveries,
    };
  });
}

/** A stored result in today's words: the description of the stored level's band (or of the band holding the score, if the bands were renamed since). */
function storedResult(content: AssessmentContent, score: number, breakdown: unknown): ScanResult {
  const level = (breakdown as Partial<ScoreBreakdown> | null)?.level;
  const band = content.bands.find((b) => b.level === level) ?? bandFor(content, score);
  return { totalScore: score, level: level ?? band.level, description: band.description, scale: scoreScale(content) };
}

/** The result a private link shows (score, level, description; nothing about the person), or null. */
export async function resultByToken(db: Database, content: AssessmentContent, token: string): Promise<ScanResult | null> {
  const [session] = await db
    .select({ score: assessmentSessions.score, breakdown: assessmentSessions.scoreBreakdown })
    .from(assessmentSessions)
    .where(sql`${assessmentSessions.resultTokenHash} = ${tokenHash(token)} AND ${assessmentSessions.completed} = 'true'`);
  return session ? storedResult(content, session.score ?? 0, session.breakdown) : null;
}
