/**
 * The scan submissions the admin sees, newest first: the first page is loaded with the panel (the
 * tab's count is the total), older ones a page at a time.
 */
import { atom } from "nanostores";
import { apiRequest, errorMessage } from "../lib/api-client.ts";
import { isSignedOutError, type Submission, type SubmissionsPage } from "./admin-api.ts";
import { sessionEnded } from "./admin-session.ts";

export const $submissions = atom<Submission[]>([]);
export const $submissionsTotal = atom(0);
/** Where the next (older) page starts; null when every submission is loaded. */
export const $submissionsNext = atom<string | null>(null);
export const $submissionsError = atom<string | null>(null);

async function loadPage(cursor: string | null): Promise<void> {
  try {
    const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : "";
    const page = await apiRequest<SubmissionsPage>("GET", `/api/admin/assessment/sessions${query}`);
    $submissions.set(cursor ? [...$submissions.get(), ...page.submissions] : page.submissions);
    $submissionsTotal.set(page.total);
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

/** The next older page, after those shown. */
export function loadMoreSubmissions(): Promise<void> {
  const next = $submissionsNext.get();
  return next ? loadPage(next) : Promise.resolve();
}

/** Whether a submission was completed: it has a completion time (SPEC.md section 2). */
export function isCompleted(submission: Submission): boolean {
  return submission.completedAt !== null;
}
