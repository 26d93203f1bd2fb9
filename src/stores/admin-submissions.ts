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

async function loadPage(cursor: string | null): Promise<void> {
  try {
    const query = new URLSearchParams({ answered: String($answeredOnly.get()) });
    if (cursor) query.set("cursor", cursor);
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

/** The CSV download of what the list holds. */
export function csvAddress(answeredOnly: boolean): string {
  return `/api/admin/assessment/sessions.csv${answeredOnly ? "?answered=true" : ""}`;
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
