/** The scan submissions the admin sees (newest first), loaded with the panel for the tab's count. */
import { atom } from "nanostores";
import { apiRequest, errorMessage } from "../lib/api-client.ts";
import { isSignedOutError, type Submission } from "./admin-api.ts";
import { sessionEnded } from "./admin-session.ts";

export const $submissions = atom<Submission[]>([]);
export const $submissionsError = atom<string | null>(null);

export async function loadSubmissions(): Promise<void> {
  try {
    const list = await apiRequest<Submission[]>("GET", "/api/admin/assessment/sessions");
    $submissions.set([...list].sort((a, b) => Date.parse(b.startedAt) - Date.parse(a.startedAt)));
    $submissionsError.set(null);
  } catch (error) {
    if (isSignedOutError(error)) return sessionEnded();
    $submissionsError.set(errorMessage(error));
  }
}

/** Whether a submission was completed: it has a completion time (SPEC.md section 2). */
export function isCompleted(submission: Submission): boolean {
  return submission.completedAt !== null;
}
