/**
 * Assessment submissions for the admin panel: every scan session, newest first, with its answers
 * (two queries, never one per session), and the same as CSV.
 */
import { asc, desc } from "drizzle-orm";
import type { Database } from "../db/client.ts";
import { assessmentResponses, assessmentSessions } from "../db/schema.ts";

export interface Submission {
  id: string;
  name: string | null;
  email: string | null;
  score: number | null;
  /** { level, totalScore, categoryScores } keyed by dimension id; null until completed. */
  scoreBreakdown: unknown;
  /** 'true' or 'false', as the spec stores it. */
  completed: string;
  responses: { id: number; questionNumber: number; answer: string }[];
  startedAt: Date;
  completedAt: Date | null;
}

export async function listSubmissions(db: Database): Promise<Submission[]> {
  const sessions = await db
    .select()
    .from(assessmentSessions)
    .orderBy(desc(assessmentSessions.startedAt), desc(assessmentSessions.id));
  const responses = await db
    .select({
      id: assessmentResponses.id,
      sessionId: assessmentResponses.sessionId,
      questionNumber: assessmentResponses.questionNumber,
      answer: assessmentResponses.answer,
    })
    .from(assessmentResponses)
    .orderBy(asc(assessmentResponses.questionNumber), asc(assessmentResponses.id));
  const bySession = new Map<string, Submission["responses"]>(sessions.map((s) => [s.id, []]));
  for (const { sessionId, ...response } of responses) bySession.get(sessionId)?.push(response);
  return sessions.map((s) => ({
    id: s.id,
    name: s.name,
    email: s.email,
    score: s.score,
    scoreBreakdown: s.scoreBreakdown,
    completed: s.completed,
    responses: bySession.get(s.id) ?? [],
    startedAt: s.startedAt,
    completedAt: s.completedAt,
  }));
}

const QUESTIONS = Array.from({ length: 15 }, (_, i) => i + 1);
export const CSV_HEADER = ["id", "name", "email", "completed", "score", "level", "startedAt", "completedAt", ...QUESTIONS.map((n) => `Q${n}`)];

/**
 * One CSV cell: quoted when it holds a comma, quote or line break; a text starting with = + - @
 * (or a tab or carriage return) gets a leading ' so a spreadsheet never runs it as a formula.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  let text = value instanceof Date ? value.toISOString() : String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Every submission as CSV (RFC 4180, CRLF), one row each, answers in columns Q1..Q15. */
export function submissionsCsv(submissions: Submission[]): string {
  const rows = submissions.map((s) => {
    const answers = new Map(s.responses.map((r) => [r.questionNumber, r.answer]));
    const level = (s.scoreBreakdown as { level?: unknown } | null)?.level;
    return [s.id, s.name, s.email, s.completed, s.score, typeof level === "string" ? level : null, s.startedAt, s.completedAt, ...QUESTIONS.map((n) => answers.get(n))];
  });
  return [CSV_HEADER, ...rows].map((row) => row.map(csvCell).join(",")).join("\r\n") + "\r\n";
}
