/**
 * No rollback (issue 42: 5). A note's version only moves forward within its notebook (the server
 * keeps an erased note's version; src/server/notebook/notebook.ts), and a sealed note names its
 * version in its additional data, so the server cannot relabel an old copy as a newer one. What it
 * could still do is serve an older version under its own number: this device remembers the highest
 * version it has seen of each note and refuses anything older. Kept for the member signed in, and
 * gone with their session (device-keys.ts).
 */
import { NOTEBOOK_SEEN_KEY } from "../storage-keys.ts";

/** The highest version seen of each note (by subsection id) of one notebook. */
export interface SeenVersions {
  notebook: string;
  notes: Record<string, number>;
}

/** Whether a note served at `served` is older than the `seen` one: a rollback, refused. */
export const isRollback = (seen: number | undefined, served: number): boolean => seen !== undefined && served < seen;

/** `seen` after seeing version `version` of a note of `notebook`: never lower than before; another notebook starts afresh. */
export function afterSeeing(seen: SeenVersions | null, notebook: string, subsectionId: number, version: number): SeenVersions {
  const notes = seen?.notebook === notebook ? seen.notes : {};
  const before = notes[String(subsectionId)] ?? 0;
  return { notebook, notes: version > before ? { ...notes, [String(subsectionId)]: version } : notes };
}

function read(): SeenVersions | null {
  try {
    const value = JSON.parse(localStorage.getItem(NOTEBOOK_SEEN_KEY) ?? "null") as SeenVersions | null;
    return value && typeof value.notebook === "string" && value.notes && typeof value.notes === "object" ? value : null;
  } catch {
    return null;
  }
}

/** The highest version this device has seen of a note of `notebook` (undefined: none). */
export function seenVersion(notebook: string, subsectionId: number): number | undefined {
  const seen = read();
  return seen?.notebook === notebook ? seen.notes[String(subsectionId)] : undefined;
}

/** Remembers that this device has seen version `version` of a note of `notebook`. */
export function rememberVersion(notebook: string, subsectionId: number, version: number): void {
  try {
    localStorage.setItem(NOTEBOOK_SEEN_KEY, JSON.stringify(afterSeeing(read(), notebook, subsectionId, version)));
  } catch {
    // storage unavailable: this page alone remembers nothing
  }
}
