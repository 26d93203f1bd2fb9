/**
 * Assessment submissions for the admin panel: scan sessions, newest first, with their answers, a
 * page at a time (a cursor names where the next page starts), and all of them as a CSV streamed
 * page by page: the server never holds every row.
 */
import { and, asc, count, desc, inArray, sql } from "../db/orm.ts";
import type { Database } from "../db/types.ts";
import { assessmentResponses, assessmentSessions } from "../db/schema.ts";
import type { Band } from "../../lib/assessment/content.ts";
import type { PublicQuestion } from "../../lib/assessment/model.ts";
import { bandOfScore } from "./scan-funnel.ts";

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

/** How many submissions a page holds by default, and at most. */
export const SUBMISSIONS_PAGE = 100;
export const MAX_SUBMISSIONS_PAGE = 500;

export interface SubmissionsPage {
  submissions: Submission[];
  /** The submissions this list holds (with its filter), for the tab's count. */
  total: number;
  /** Every scan session, answered or not. */
  all: number;
  /** Where the next (older) page starts, or null on the last page. */
  nextCursor: string | null;
}

/**
 * Where a page starts: the last submission of the page before, by its start time in whole
 * microseconds since 1970 (PostgreSQL's own precision: a JavaScript Date would cut it to
 * milliseconds and skip rows started in the same millisecond) and its id, newest first.
 */
export interface SubmissionsCursor {
  micros: string;
  id: string;
}

const encodeCursor = (c: SubmissionsCursor) => Buffer.from(`${c.micros}|${c.id}`).toString("base64url");

export function decodeCursor(cursor: string): SubmissionsCursor | null {
  const [micros, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  return micros && /^\d{1,18}$/.test(micros) && id && /^[0-9a-f-]{36}$/.test(id) ? { micros, id } : null;
}

const startedMicros = sql<string>`(extract(epoch from ${assessmentSessions.startedAt}) * 1000000)::bigint::text`;

export interface SubmissionsQuery {
  cursor?: SubmissionsCursor;
  limit?: number;
  /**
   * Only scans with at least one answer: every visit to /assessment starts a session (SPEC.md
   * section 4), so most sessions of a busy site hold nothing to read.
   */
  answered?: boolean;
  /** Only completed scans whose score lies in this band's range (the band filter). */
  band?: { min: number; max: number };
  /** Only this submission (the admin panel's link to one, from a lead webhook). */
  id?: string;
}

/** The session has at least one answer. */
const hasAnswers = sql`exists (select 1 from ${assessmentResponses} where ${assessmentResponses.sessionId} = ${assessmentSessions.id})`;

/**
 * One page of submissions, newest first, with their answers: three queries (the page, its
 * answers, the counts), never every row.
 */
export async function listSubmissions(db: Database, { cursor, limit = SUBMISSIONS_PAGE, answered = false, band, id }: SubmissionsQuery = {}): Promise<SubmissionsPage> {
  const inBand = band
    ? sql`(${assessmentSessions.completed} = 'true' and ${assessmentSessions.score} between ${band.min} and ${band.max})`
    : undefined;
  const filter = and(answered ? hasAnswers : undefined, inBand, id ? sql`${assessmentSessions.id} = ${id}::uuid` : undefined);
  const rows = await db
    .select({ session: assessmentSessions, micros: startedMicros })
    .from(assessmentSessions)
    .where(
      and(
        cursor
          ? sql`(${assessmentSessions.startedAt}, ${assessmentSessions.id}) < (timestamptz 'epoch' + ${cursor.micros}::bigint * interval '1 microsecond', ${cursor.id}::uuid)`
          : undefined,
        filter,
      ),
    )
    .orderBy(desc(assessmentSessions.startedAt), desc(assessmentSessions.id))
    .limit(limit + 1);
  const sessions = rows.slice(0, limit).map((row) => row.session);
  const responses =
    sessions.length === 0
      ? []
      : await db
          .select({
            id: assessmentResponses.id,
            sessionId: assessmentResponses.sessionId,
            questionNumber: assessmentResponses.questionNumber,
            answer: assessmentResponses.answer,
          })
          .from(assessmentResponses)
          .where(inArray(assessmentResponses.sessionId, sessions.map((s) => s.id)))
          .orderBy(asc(assessmentResponses.questionNumber), asc(assessmentResponses.id));
  const [counts] = await db
    .select({ all: count(), filtered: filter ? sql<number>`(count(*) filter (where ${filter}))::int` : count() })
    .from(assessmentSessions);
  const bySession = new Map<string, Submission["responses"]>(sessions.map((s) => [s.id, []]));
  for (const { sessionId, ...response } of responses) bySession.get(sessionId)?.push(response);
  const last = rows[limit - 1];
  return {
    submissions: sessions.map((s) => ({
      id: s.id,
      name: s.name,
      email: s.email,
      score: s.score,
      scoreBreakdown: s.scoreBreakdown,
      completed: s.completed,
      responses: bySession.get(s.id) ?? [],
      startedAt: s.startedAt,
      completedAt: s.completedAt,
    })),
    total: Number(counts!.filtered),
    all: counts!.all,
    nextCursor: rows.length > limit && last ? encodeCursor({ micros: last.micros, id: last.session.id }) : null,
  };
}

/** An answer with the wording it was chosen from: today's content/assessment.yaml (null when it no longer has that question or option). */
export interface ReadableResponse {
  id: number;
  questionNumber: number;
  answer: string;
  questionText: string | null;
  answerText: string | null;
}

export type ReadableSubmission = Omit<Submission, "responses"> & { responses: ReadableResponse[] };

/**
 * Submissions with each answer's question and chosen option in words (the admin panel's View
 * Answers), so the panel needs no copy of the questions. The wording is today's: a submission
 * stores only letters.
 */
export function withAnswerTexts(submissions: Submission[], questions: readonly PublicQuestion[]): ReadableSubmission[] {
  const byId = new Map(questions.map((q) => [q.id, q]));
  return submissions.map((s) => ({
    ...s,
    responses: s.responses.map((r) => {
      const question = byId.get(r.questionNumber);
      return {
        ...r,
        questionText: question?.text ?? null,
        answerText: question?.options.find((o) => o.value === r.answer)?.text ?? null,
      };
    }),
  }));
}

/** Every submission (or every answered one), page by page (the CSV download): at most one page is in memory at a time. */
export async function* allSubmissions(
  db: Database,
  { answered = false, band, pageSize = MAX_SUBMISSIONS_PAGE }: { answered?: boolean; band?: SubmissionsQuery["band"]; pageSize?: number } = {},
): AsyncGenerator<Submission[]> {
  let cursor: SubmissionsCursor | undefined;
  for (;;) {
    const page = await listSubmissions(db, { cursor, limit: pageSize, answered, band });
    if (page.submissions.length > 0) yield page.submissions;
    if (!page.nextCursor) return;
    cursor = decodeCursor(page.nextCursor)!;
  }
}

const QUESTIONS = Array.from({ length: 15 }, (_, i) => i + 1);
export const CSV_HEADER = ["id", "name", "email", "completed", "score", "level", "band", "startedAt", "completedAt", ...QUESTIONS.map((n) => `Q${n}`)];

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

/**
 * Submissions as CSV lines (RFC 4180, CRLF), one row each, answers in columns Q1..Q15. `level` is
 * the label stored with the result; `band` is the band of today's content/assessment.yaml whose
 * score range holds the score (the two differ only if the bands were changed since).
 */
export function csvRows(submissions: Submission[], bands: readonly Band[] = []): string {
  return submissions
    .map((s) => {
      const answers = new Map(s.responses.map((r) => [r.questionNumber, r.answer]));
      const level = (s.scoreBreakdown as { level?: unknown } | null)?.level;
      const band = s.completed === "true" ? bandOfScore(bands, s.score)?.level : undefined;
      const row = [s.id, s.name, s.email, s.completed, s.score, typeof level === "string" ? level : null, band, s.startedAt, s.completedAt, ...QUESTIONS.map((n) => answers.get(n))];
      return `${row.map(csvCell).join(",")}\r\n`;
    })
    .join("");
}

export const CSV_HEADER_LINE = `${CSV_HEADER.map(csvCell).join(",")}\r\n`;

/**
 * Every submission as CSV, streamed page by page; `done` settles when the stream has ended (read
 * to the end, cancelled or failed), so a caller can keep its connection until then.
 */
export function submissionsCsvStream(
  db: Database,
  { answered = false, band, bands = [] }: { answered?: boolean; band?: SubmissionsQuery["band"]; bands?: readonly Band[] } = {},
): { stream: ReadableStream<Uint8Array>; done: Promise<void> } {
  const encoder = new TextEncoder();
  const pages = allSubmissions(db, { answered, band });
  let headerSent = false;
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(CSV_HEADER_LINE));
        return;
      }
      try {
        const next = await pages.next();
        if (next.done) {
          controller.close();
          finish();
        } else {
          controller.enqueue(encoder.encode(csvRows(next.value, bands)));
        }
      } catch (error) {
        finish();
        throw error;
      }
    },
    async cancel() {
      await pages.return(undefined);
      finish();
    },
  });
  return { stream, done };
}
