/**
 * The notebook in the member's browser (issue 32), without React: the server's calls, the
 * notebook key (opened once per device and kept as a non-extractable CryptoKey: device-keys.ts),
 * and what is kept in this browser (an anonymous reader's notes, a member's saves not yet
 * confirmed). The chapter page's Notebook island, /profile and /resume build on it.
 */
import { apiRequest } from "../api-client.ts";
import { NOTEBOOK_LOCAL_KEY } from "../storage-keys.ts";
import {
  createNotebook,
  openNote,
  replacePassphrase,
  sealNote,
  unlockWithPassphrase,
  unlockWithRecoveryKey,
  type NotePlain,
  type SealedNote,
  type WrappedKeys,
} from "./crypto.ts";
import { keepKey, keptKey } from "./device-keys.ts";
import type { NotePlace, OpenedNote } from "./export.ts";

/** A notebook as the server answers it: its wrapped keys, id, version and how many notes it holds. */
export interface NotebookInfo extends WrappedKeys {
  id: string;
  version: number;
  notes: number;
  createdAt: string;
}

/** A sealed note as the server keeps it. */
export interface StoredNote extends SealedNote {
  subsectionId: number;
  version: number;
  updatedAt: string;
}

export type PlacedNote = StoredNote & { place: NotePlace | null };

export const notebookApi = {
  get: async () => (await apiRequest<{ notebook: NotebookInfo | null }>("GET", "/api/notebook")).notebook,
  create: async (wrapped: WrappedKeys) => (await apiRequest<{ notebook: NotebookInfo }>("POST", "/api/notebook", wrapped)).notebook,
  rewrap: async (version: number, wrapped: WrappedKeys) => (await apiRequest<{ notebook: NotebookInfo }>("PUT", "/api/notebook", { ...wrapped, version })).notebook,
  erase: () => apiRequest<{ notes: number }>("DELETE", "/api/notebook"),
  /** The notebook and its notes on one chapter, in one call (a chapter page's one ask). */
  chapter: (slug: string) => apiRequest<{ notebook: NotebookInfo | null; notes: StoredNote[] }>("GET", `/api/notebook/notes?chapter=${encodeURIComponent(slug)}`),
  allNotes: async () => (await apiRequest<{ notes: PlacedNote[] }>("GET", "/api/notebook/notes")).notes,
  save: async (subsectionId: number, version: number, sealed: SealedNote) =>
    (await apiRequest<{ note: StoredNote }>("PUT", `/api/notebook/notes/${subsectionId}`, { version, ...sealed })).note,
  remove: (subsectionId: number, version: number) => apiRequest("DELETE", `/api/notebook/notes/${subsectionId}?version=${version}`),
  export: (login: string, password: string) => apiRequest<{ notebook: NotebookInfo; notes: PlacedNote[] }>("POST", "/api/notebook/export", { login, password }),
};

/** A new notebook, started on the server; its key is kept on this device. Answers it and the recovery key to show once. */
export async function startNotebook(passphrase: string): Promise<{ info: NotebookInfo; key: CryptoKey; recoveryKey: string }> {
  const { key, wrapped, recoveryKey } = await createNotebook(passphrase);
  const info = await notebookApi.create(wrapped);
  await keepKey(info.id, key);
  return { info, key, recoveryKey };
}

/** The notebook key, opened with the passphrase and kept on this device. */
export async function openWithPassphrase(info: NotebookInfo, passphrase: string): Promise<CryptoKey> {
  const key = await unlockWithPassphrase(info, passphrase);
  await keepKey(info.id, key);
  return key;
}

/** The notebook key, opened with the recovery key only (no new passphrase: the export's download). */
export function openWithRecoveryKey(info: WrappedKeys, recoveryKey: string): Promise<CryptoKey> {
  return unlockWithRecoveryKey(info, recoveryKey);
}

/** A forgotten passphrase replaced with the recovery key: the key re-wrapped on the server, and kept on this device. */
export async function replaceForgottenPassphrase(info: NotebookInfo, recoveryKey: string, passphrase: string): Promise<{ info: NotebookInfo; key: CryptoKey }> {
  const { key, wrapped } = await replacePassphrase(info, recoveryKey, passphrase);
  const next = await notebookApi.rewrap(info.version, wrapped);
  await keepKey(next.id, key);
  return { info: next, key };
}

/** The key kept on this device for `info`'s notebook, or null. */
export function deviceKey(info: NotebookInfo): Promise<CryptoKey | null> {
  return keptKey(info.id);
}

/** Seals and saves a note over `version` (0: a new one); answers the stored note. A 409 ApiError carries the current one (`details.current`). */
export async function saveNote(key: CryptoKey, subsectionId: number, version: number, note: NotePlain): Promise<StoredNote> {
  return notebookApi.save(subsectionId, version, await sealNote(key, subsectionId, version + 1, note));
}

/** Decrypts a stored note (throws when it was not sealed by this key for its passage and version). */
export function readNote(key: CryptoKey, stored: StoredNote): Promise<NotePlain> {
  return openNote(key, stored.subsectionId, stored.version, stored);
}

/** Every note decrypted, in the order given (the server's book order). Notes that do not open are left out and counted. */
export async function openAll(key: CryptoKey, notes: readonly PlacedNote[]): Promise<{ opened: OpenedNote[]; unreadable: number }> {
  const opened: OpenedNote[] = [];
  let unreadable = 0;
  for (const stored of notes) {
    try {
      opened.push({ subsectionId: stored.subsectionId, updatedAt: stored.updatedAt, note: await readNote(key, stored), place: stored.place });
    } catch {
      unreadable++;
    }
  }
  return { opened, unreadable };
}

/** What this browser keeps of one note: an anonymous reader's words, or a member's save not yet confirmed. */
export interface LocalNote {
  /** An anonymous reader's note (plain: it never leaves this browser). */
  note?: NotePlain;
  /** A member's save the server has not confirmed: the version it replaces, sealed for the next. */
  pending?: { notebook: string; version: number; sealed: SealedNote };
  at: string;
}

/** Kept by chapter slug, then subsection id. */
export type LocalNotes = Record<string, Record<string, LocalNote>>;

export function readLocalNotes(): LocalNotes {
  try {
    return (JSON.parse(localStorage.getItem(NOTEBOOK_LOCAL_KEY) || "{}") as LocalNotes) ?? {};
  } catch {
    return {};
  }
}

/** Keeps (or, with null, forgets) what this browser holds of a note. */
export function writeLocalNote(chapterSlug: string, subsectionId: number, local: LocalNote | null): void {
  const all = readLocalNotes();
  const chapter = { ...all[chapterSlug] };
  if (local) chapter[String(subsectionId)] = local;
  else delete chapter[String(subsectionId)];
  if (Object.keys(chapter).length > 0) all[chapterSlug] = chapter;
  else delete all[chapterSlug];
  try {
    if (Object.keys(all).length > 0) localStorage.setItem(NOTEBOOK_LOCAL_KEY, JSON.stringify(all));
    else localStorage.removeItem(NOTEBOOK_LOCAL_KEY);
  } catch {
    // storage unavailable: this page keeps it in memory only
  }
}

/** An anonymous reader's notes kept in this browser, all chapters. */
export function anonymousNotes(): Array<{ chapterSlug: string; subsectionId: number; note: NotePlain }> {
  return Object.entries(readLocalNotes()).flatMap(([chapterSlug, notes]) =>
    Object.entries(notes).flatMap(([id, local]) => (local.note && local.note.text.trim() ? [{ chapterSlug, subsectionId: Number(id), note: local.note }] : [])),
  );
}
