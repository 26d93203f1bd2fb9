/**
 * The Readers tab (issue 23): who reads what, from GET /api/admin/readers, and erasing one code's
 * reading. The shapes are the server's (src/server/admin/readers.ts).
 */
import { atom } from "nanostores";
import { apiRequest, errorMessage } from "../lib/api-client.ts";
import { notify } from "../lib/notify.ts";
import type { ChapterReading, CodeReading } from "../lib/readers.ts";
import { isSignedOutError } from "./admin-api.ts";
import { sessionEnded } from "./admin-session.ts";

export type { ChapterReading, CodeReading };

export interface ReadersAnswer {
  codes: CodeReading[];
  chapters: ChapterReading[];
  /** How many members keep a notebook (issue 32): a count only. */
  notebooks: number;
  /** How long the raw reading sessions and the daily totals are kept, in days. */
  retention: { readingDays: number; readingTotalsDays: number };
}

export const $readers = atom<ReadersAnswer | null>(null);
export const $readersError = atom<string | null>(null);

export async function loadReaders(): Promise<void> {
  try {
    $readers.set(await apiRequest<ReadersAnswer>("GET", "/api/admin/readers"));
    $readersError.set(null);
  } catch (error) {
    if (isSignedOutError(error)) return sessionEnded();
    $readersError.set(errorMessage(error));
  }
}

/** Erases everything recorded of the code's reading, then reloads the tab. */
export async function eraseReading(login: string): Promise<void> {
  try {
    await apiRequest("DELETE", `/api/admin/access-codes/${encodeURIComponent(login)}/reading`);
    notify({ title: "Success", description: `Reading of ${login} erased` });
  } catch (error) {
    if (isSignedOutError(error)) return sessionEnded();
    notify({ title: "Error", description: `Failed to erase reading: ${errorMessage(error)}`, variant: "destructive" });
  }
  await loadReaders();
}

/** The CSV download of one table, of one level or all. */
export const readersCsvAddress = (of: "codes" | "chapters", level: string) =>
  `/api/admin/readers.csv?of=${of}${level ? `&level=${encodeURIComponent(level)}` : ""}`;
