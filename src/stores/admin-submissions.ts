/**
 * The scan submissions the admin sees, newest first: the first page is loaded with the panel (the
 * tab's count is the total), older ones a page at a time. By default only scans with at least one
 * answer: each visit to /assessment starts a session, and most hold nothing to read.
 */
import { atom } from "nanostores";
import { apiRequest, errorMessage } from "../lib/api-client.ts";
import { isSignedOutError, type Submission, type SubmissionsPage } from "./admin-api.ts";
import { sessionEnded } from "./admin-session.ts";

export const $submissions = atom<Submission[]>([]);
/** How many submissions the list holds, with its filter. */
export const $submissionsTotal = atom(0);
/** Every scan session, answered or not. */
export const $submissionsAll = atom(0);
/** Whether scans without a single answer are left out (the default). */
export const $answeredOnly = atom(true);
/** Where the next (older) page starts; null when every submission is loaded. */
export const $submissionsNext = atom<string | null>(null);
export const $submissionsError = atom<string | null>(null);
/** The result band the list is filtered to (a level of content/assessment.yaml), or "" for every scan. */
export const $band = atom("");
/** One submission shown alone (the admin link a lead webhook carries), or null. */
export const $onlySubmission = atom<string | null>(null);

export interface FunnelStep {
  step: number | "contact";
  reached: number;
  stopped: number;
}

export interface ScanFunnel {
  /** Scan sessions: every visit to /assessment opens one. */
  opened: number;
  /** Scans with at least one answer saved. */
  started: number;
  completed: number;
  steps: FunnelStep[];
  bands: { level: string; min: number; max: number }[];
  weeks: { week: string; bands: Record<string, number>; total: number }[];
}

export const $funnel = atom<ScanFunnel | null>(null);
export const $funnelError = atom<string | null>(null);

/** Drop-off per question and completions per band per week. */
export async function loadFunnel(): Promise<void> {
  try {
    $funnel.set(await apiRequest<ScanFunnel>("GET", "/api/admin/assessment/funnel"));
    $funnelError.set(null);
  } catch (error) {
    if (isSignedOutError(error)) return sessionEnded();
    $funnelError.set(errorMessage(error));
  }
}

async function loadPage(cursor: string | null): Promise<void> {
  try {
    const query = new URLSearchParams({ answered: String($answeredOnly.get()) });
    if (cursor) query.set("cursor", cursor);
    if ($band.get()) query.set("band", $band.get());
    const only = $onlySubmission.get();
    if (only) query.set("id", only);
    const page = await apiRequest<SubmissionsPage>("GET", `/api/admin/assessment/sessions?${query}`);
    $submissions.set(cursor ? [...$submissions.get(), ...page.submissions] : page.submissions);
    $submissionsTotal.set(page.total);
    $submissionsAll.set(page.all);
    $submissionsNext.set(page.nextCursor);
    $submissionsError.set(null);
  } catch (error) {
    if (isSignedOutError(error)) return sessionEnded();
    $submissionsError.set(errorMessage(error));
  }
}

/** The newest page (again). */
export function loadSubmissions(): Promise<void> {
  return loadPage(null);
}

/** Shows scans without answers too, or leaves them out again; reloads the list. */
export function showUnanswered(show: boolean): Promise<void> {
  $answeredOnly.set(!show);
  return loadPage(null);
}

/** Filters the list to one result band ("" for all); reloads it. */
export function filterByBand(band: string): Promise<void> {
  $band.set(band);
  return loadPage(null);
}

/** Shows one submission alone (from its admin link), or every one again (null). */
export function showOnlySubmission(id: string | null): Promise<void> {
  $onlySubmission.set(id);
  return loadPage(null);
}

/** The CSV download of what the list holds. */
export function csvAddress(answeredOnly: boolean, band = ""): string {
  const query = new URLSearchParams();
  if (answeredOnly) query.set("answered", "true");
  if (band) query.set("band", band);
  const text = query.toString();
  return `/api/admin/assessment/sessions.csv${text ? `?${text}` : ""}`;
}

/** The next older page, after those shown. */
export function loadMoreSubmissions(): Promise<void> {
  const next = $submissionsNext.get();
  return next ? loadPage(next) : Promise.resolve();
}

/** Whether a submission was completed: it has a completion time (SPEC.md section 2). */
export function isCompleted(submission: Submission): boolean {
  return submission.completedAt !== null;
}
