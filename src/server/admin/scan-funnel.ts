/**
 * Where people stop in the scan, and who finishes in which band (issue 15, the Assessment
 * Submissions tab). A scan has "reached" question n when it answered every question before it
 * (its furthest answer is at least n - 1: answers can be changed going back, never skipped); it
 * "stopped" at question n when it reached it, answered nothing further and was never completed.
 * After question 15 comes the 'One Final Step' form (name and email). Every visit to /assessment
 * opens a scan session at once (SPEC.md section 4), so a session is a visit, not a start: a scan is
 * "opened" by the visit and "started" once its first answer is saved. Question 1's reach counts
 * the opened scans (every visitor sees it) and its stops the visits that left without answering.
 * Scans never completed are deleted after the retention period (RETENTION_UNFINISHED_SCAN_DAYS),
 * so the figures cover that period.
 *
 * Bands are the result levels of content/assessment.yaml, by score range.
 */
import { sql } from "../db/orm.ts";
import type { Database } from "../db/types.ts";
import { assessmentResponses, assessmentSessions } from "../db/schema.ts";
import type { Band } from "../../lib/assessment/content.ts";
import { QUESTION_COUNT } from "../../lib/assessment/model.ts";

export interface FunnelStep {
  /** 1..15, or "contact" for the name-and-email form. */
  step: number | "contact";
  reached: number;
  stopped: number;
}

export interface Funnel {
  /** Every scan session: each visit to /assessment opens one. */
  opened: number;
  /** Scans with at least one answer saved. */
  started: number;
  completed: number;
  steps: FunnelStep[];
}

/** Scans grouped by their furthest answered question (0: none) and whether they were completed. */
export interface FurthestCount {
  furthest: number;
  completed: boolean;
  scans: number;
}

/** The funnel from grouped counts (pure: the SQL only groups). */
export function funnelFrom(counts: FurthestCount[]): Funnel {
  const sum = (keep: (c: FurthestCount) => boolean) => counts.filter(keep).reduce((n, c) => n + c.scans, 0);
  const steps: FunnelStep[] = [];
  for (let n = 1; n <= QUESTION_COUNT + 1; n++) {
    steps.push({
      step: n > QUESTION_COUNT ? "contact" : n,
      reached: sum((c) => c.furthest >= n - 1),
      stopped: sum((c) => c.furthest === n - 1 && !c.completed),
    });
  }
  return { opened: sum(() => true), started: sum((c) => c.furthest >= 1 || c.completed), completed: sum((c) => c.completed), steps };
}

export async function scanFunnel(db: Database): Promise<Funnel> {
  const result = (await db.execute(sql`
    SELECT furthest, completed, count(*)::int AS scans FROM (
      SELECT s."id", s."completed" = 'true' AS completed, coalesce(max(r."question_number"), 0) AS furthest
      FROM ${assessmentSessions} s LEFT JOIN ${assessmentResponses} r ON r."session_id" = s."id"
      GROUP BY s."id", s."completed"
    ) per_scan
    GROUP BY furthest, completed`)) as unknown as { rows: Array<{ furthest: number; completed: boolean; scans: number }> };
  return funnelFrom(result.rows.map((r) => ({ furthest: Number(r.furthest), completed: r.completed === true || String(r.completed) === "t", scans: Number(r.scans) })));
}

/** The band whose score range holds `score`, if any. */
export function bandOfScore(bands: readonly Band[], score: number | null): Band | undefined {
  return score === null ? undefined : bands.find((b) => score >= b.min && score <= b.max);
}

export interface BandWeek {
  /** Monday of the week (UTC), YYYY-MM-DD. */
  week: string;
  /** Completions per band level, every band listed (0 when none). */
  bands: Record<string, number>;
  total: number;
}

/** Mondays (UTC) from the week `weeks - 1` before `now`'s to `now`'s. */
export function weekStarts(now: Date, weeks: number): string[] {
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
  return Array.from({ length: weeks }, (_, i) => new Date(day.getTime() - (weeks - 1 - i) * 7 * 86400_000).toISOString().slice(0, 10));
}

/** Completions per band per week over the last `weeks` weeks (UTC weeks starting Monday), oldest first. */
export async function completionsByBand(db: Database, bands: readonly Band[], { now = new Date(), weeks = 12 }: { now?: Date; weeks?: number } = {}): Promise<BandWeek[]> {
  const starts = weekStarts(now, weeks);
  const result = (await db.execute(sql`
    SELECT to_char(date_trunc('week', ${assessmentSessions.completedAt} AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS week, ${assessmentSessions.score} AS score, count(*)::int AS scans
    FROM ${assessmentSessions}
    WHERE ${assessmentSessions.completedAt} IS NOT NULL AND ${assessmentSessions.completedAt} >= ${`${starts[0]}T00:00:00Z`}::timestamptz
    GROUP BY 1, 2`)) as unknown as { rows: Array<{ week: string; score: number | null; scans: number }> };
  const byWeek = new Map(starts.map((week) => [week, { week, bands: Object.fromEntries(bands.map((b) => [b.level, 0])) as Record<string, number>, total: 0 }]));
  for (const row of result.rows) {
    const entry = byWeek.get(row.week);
    const band = bandOfScore(bands, row.score === null ? null : Number(row.score));
    if (!entry) continue;
    entry.total += Number(row.scans);
    if (band) entry.bands[band.level]! += Number(row.scans);
  }
  return [...byWeek.values()];
}
