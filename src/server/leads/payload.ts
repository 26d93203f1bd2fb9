/**
 * The JSON a lead webhook receives for a completed scan (README: "Lead webhooks"). The body is
 * fixed when the delivery is queued, so every attempt sends the same bytes. Points per option are
 * not in it: the chosen option's text is.
 */
import type { AssessmentContent } from "../../lib/assessment/content.ts";
import type { Answer } from "../../lib/assessment/model.ts";

export interface LeadPayload {
  event: "scan.completed" | "test";
  /** The scan's id: the same for every delivery of one scan, so a receiver can ignore repeats. */
  id: string;
  name: string;
  email: string;
  score: number;
  level: string;
  categories: { id: string; name: string; score: number }[];
  answers: { question: number; text: string; answer: string; answerText: string }[];
  completedAt: string;
  /** The submission in the admin panel (an admin must sign in to see it). */
  submissionUrl: string;
}

export interface CompletedScan {
  id: string;
  name: string;
  email: string;
  totalScore: number;
  level: string;
  categoryScores: Record<string, number>;
  answers: Partial<Record<number, Answer>>;
  completedAt: Date;
}

/** Where the admin panel shows one submission. */
export function submissionUrl(siteUrl: string, sessionId: string): string {
  return new URL(`/admin?submission=${encodeURIComponent(sessionId)}`, siteUrl).toString();
}

export function leadPayload(content: AssessmentContent, scan: CompletedScan, siteUrl: string, event: LeadPayload["event"] = "scan.completed"): LeadPayload {
  return {
    event,
    id: scan.id,
    name: scan.name,
    email: scan.email,
    score: scan.totalScore,
    level: scan.level,
    categories: content.dimensions.map((d) => ({ id: d.id, name: d.name, score: scan.categoryScores[d.id] ?? 0 })),
    answers: content.questions.flatMap((q) => {
      const answer = scan.answers[q.id];
      if (!answer) return [];
      return [{ question: q.id, text: q.text, answer, answerText: q.options.find((o) => o.value === answer)?.text ?? "" }];
    }),
    completedAt: scan.completedAt.toISOString(),
    submissionUrl: submissionUrl(siteUrl, scan.id),
  };
}

/** The sample a "Send a test" delivers: a made-up respondent who answered B throughout. */
export function samplePayload(content: AssessmentContent, siteUrl: string, now: Date): LeadPayload {
  const answers = Object.fromEntries(content.questions.map((q) => [q.id, "B" as Answer]));
  const categoryScores: Record<string, number> = {};
  let totalScore = 0;
  for (const q of content.questions) {
    const points = q.options.find((o) => o.value === "B")!.points;
    categoryScores[q.dimension] = (categoryScores[q.dimension] ?? 0) + points;
    totalScore += points;
  }
  const band = content.bands.find((b) => totalScore >= b.min && totalScore <= b.max) ?? content.bands[0]!;
  return leadPayload(
    content,
    { id: "00000000-0000-4000-8000-000000000000", name: "Test Lead", email: "test.lead@example.com", totalScore, level: band.level, categoryScores, answers, completedAt: now },
    siteUrl,
    "test",
  );
}
