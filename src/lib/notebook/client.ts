/**
 * The notebook in the member's browser (issues 32 and 42), without React: the server's calls, the
 * notebook key (opened once per device and kept as a non-extractable CryptoKey: device-keys.ts),
 * and what is kept in this browser: an anonymous reader's notes (plain, theirs: written only while
 * nobody is signed in), and a member's saves not yet confirmed (sealed; never their words in the
 * clear). The chapter page's notebook (chapter-notebook.ts), /profile and /resume build on it.
 *
 * Whatever way the key comes to hand (started, opened with the passphrase or the recovery key, or
 * kept on this device), `adoptBrowserNotes` then moves the notes this browser kept before sign-in
 * into the notebook: none is lost, in any order of steps (issue 42: 1).
 */
import { ApiError, apiRequest } from "../api-client.ts";
import { NOTEBOOK_LOCAL_KEY, NOTEBOOK_PENDING_KEY } from "../storage-keys.ts";
import {
  createNotebook,
  openNote,
  renewRecoveryKey,
  replacePassphrase,
  sealNote,
  unlockWithPassphrase,
  unlockWithRecoveryKey,
  type NotePlain,
  type SealedNote,
  type WrappedKeys,
} from "./crypto.ts";
import { forgetOtherKeys, keepKey, keptKey } from "./device-keys.ts";
import type { NotePlace, OpenedNote } from "./export.ts";
import { isRollback, rememberVersion, seenVersion } from "./versions.ts";
import type { StoredMessage } from "../messages/line.ts";

/** A notebook as the server answers it: its wrapped keys, id, version, how many notes, and whether its recovery key was shown kept. */
export interface NotebookInfo extends WrappedKeys {
  id: string;
  version: number;
  notes: number;
  recoveryKept: boolean;
  createdAt: string;
}

/** A note as the server keeps it: sealed, or erased (no IV or ciphertext: only its version, which a note written there again continues past). */
export interface StoredNote {
  subsectionId: number;
  version: number;
  iv: string | null;
  ciphertext: string | null;
  updatedAt: string;
}

export type PlacedNote = StoredNote & { place: NotePlace | null };

export const notebookApi = {
  get: async () => (await apiRequest<{ notebook: NotebookInfo | null }>("GET", "/api/notebook")).notebook,
  create: async (wrapped: WrappedKeys) => (await apiRequest<{ notebook: NotebookInfo }>("POST", "/api/notebook", wrapped)).notebook,
  rewrap: async (version: number, wrapped: WrappedKeys, recoveryKept: boolean) =>
    (await apiRequest<{ notebook: NotebookInfo }>("PUT", "/api/notebook", { ...wrapped, version, recoveryKept })).notebook,
  keepRecovery: async (version: number) => (await apiRequest<{ notebook: NotebookInfo }>("PUT", "/api/notebook/recovery", { version })).notebook,
  erase: () => apiRequest<{ notes: number }>("DELETE", "/api/notebook"),
  /** The notebook and its notes on one chapter, in one call (a chapter page's one ask). */
  chapter: (slug: string) => apiRequest<{ notebook: NotebookInfo | null; notes: StoredNote[] }>("GET", `/api/notebook/notes?chapter=${encodeURIComponent(slug)}`),
  allNotes: async () => (await apiRequest<{ notes: PlacedNote[] }>("GET", "/api/notebook/notes")).notes,
  save: async (notebook: string, subsectionId: number, version: number, sealed: SealedNote) =>
    (await apiRequest<{ note: StoredNote }>("PUT", `/api/notebook/notes/${subsectionId}`, { notebook, version, ...sealed })).note,
  /** Erases a note's words; answers it as kept now (its next version, no ciphertext). */
  remove: async (notebook: string, subsectionId: number, version: number) =>
    (await apiRequest<{ note: StoredNote }>("DELETE", `/api/notebook/notes/${subsectionId}?version=${version}&notebook=${notebook}`)).note,
  /** The notebook of an access code (also one that has ended), and its direct line's conversation (issue 43), sealed. */
  export: (login: string, password: string) =>
    apiRequest<{ notebook: NotebookInfo; notes: PlacedNote[]; conversation: { id: string; keys: { privateKey: string | null } | null; messages: StoredMessage[] } | null }>(
      "POST",
      "/api/notebook/export",
      { login, password },
    ),
};

/** Whether a failed call says the session has ended (signed out, expired, ended elsewhere). */
export const sessionEnded = (error: unknown): boolean => error instanceof ApiError && error.status === 401;

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

/**
 * A forgotten passphrase replaced with the recovery key: the key re-wrapped on the server (the
 * recovery key, just typed, is known kept), and kept on this device.
 */
export async function replaceForgottenPassphrase(info: NotebookInfo, recoveryKey: string, passphrase: string): Promise<{ info: NotebookInfo; key: CryptoKey }> {
  const { key, wrapped } = await replacePassphrase(info, recoveryKey, passphrase);
  const next = await notebookApi.rewrap(info.version, wrapped, true);
  await keepKey(next.id, key);
  return { info: next, key };
}

/** A new recovery key (the old one never shown kept): the key re-wrapped on the server; answers the notebook and the key to show once. */
export async function newRecoveryKey(info: NotebookInfo, passphrase: string): Promise<{ info: NotebookInfo; key: CryptoKey; recoveryKey: string }> {
  const { key, wrapped, recoveryKey } = await renewRecoveryKey(info, passphrase);
  const next = await notebookApi.rewrap(info.version, wrapped, false);
  await keepKey(next.id, key);
  return { info: next, key, recoveryKey };
}

/**
 * The key kept on this device for `info`'s notebook, or null. A key kept for another notebook
 * (erased, maybe started again, elsewhere) goes, and with it the saves sealed for that one.
 */
export async function deviceKey(info: NotebookInfo | null): Promise<CryptoKey | null> {
  if (readPending()?.notebook !== info?.id) writePending(null);
  await forgetOtherKeys(info?.id);
  return info ? keptKey(info.id) : null;
}

/** Seals and saves a note of `notebook` over `version` (0: a new one); answers the stored note. A 409 ApiError carries the current one (`details.current`). */
export async function saveNote(key: CryptoKey, notebook: string, subsectionId: number, version: number, note: NotePlain): Promise<StoredNote> {
  const stored = await notebookApi.save(notebook, subsectionId, version, await sealNote(key, { notebook, subsectionId, version: version + 1 }, note));
  rememberVersion(notebook, subsectionId, stored.version);
  return stored;
}

/** Why a stored note is not shown: it does not open with this notebook's key, or it is older than one this device has seen. */
export type Unopened = "unreadable" | "older";

/** The words shown in place of a note that cannot be shown, by why. */
export const UNOPENED_TEXT: Record<Unopened, string> = {
  unreadable: "This note could not be opened on this device.",
  older: "This note is older than one this device has already seen, so it is not shown: the server sent an earlier copy. Nothing is saved over it.",
};

/**
 * Decrypts a stored note of `notebook` (not an erased one), after checking it is no older than the
 * newest this device has seen; remembers its version. Answers its words, or why they cannot be had.
 */
export async function readNote(key: CryptoKey, notebook: string, stored: StoredNote, track = true): Promise<NotePlain | Unopened> {
  if (track && isRollback(seenVersion(notebook, stored.subsectionId), stored.version)) return "older";
  try {
    const note = await openNote(key, { notebook, subsectionId: stored.subsectionId, version: stored.version }, { iv: stored.iv!, ciphertext: stored.ciphertext! });
    if (track) rememberVersion(notebook, stored.subsectionId, stored.version);
    return note;
  } catch {
    return "unreadable";
  }
}

/**
 * Every note decrypted, in the order given (the server's book order); those that cannot be shown,
 * with why. `track`: checked against and remembered in this device's versions seen (not for a
 * download by someone signed out, which keeps nothing here).
 */
export async function openAll(
  key: CryptoKey,
  notebook: string,
  notes: readonly PlacedNote[],
  track = true,
): Promise<{ opened: OpenedNote[]; unopened: Array<{ stored: PlacedNote; why: Unopened }> }> {
  const opened: OpenedNote[] = [];
  const unopened: Array<{ stored: PlacedNote; why: Unopened }> = [];
  for (const stored of notes) {
    if (stored.ciphertext === null) continue;
    const note = await readNote(key, notebook, stored, track);
    if (typeof note === "string") unopened.push({ stored, why: note });
    else opened.push({ subsectionId: stored.subsectionId, updatedAt: stored.updatedAt, note, place: stored.place });
  }
  return { opened, unopened };
}

/** Both versions of a note, kept: the first one, then the other under a line naming where it came from. */
export function keptTogether(first: string, second: string, from: string): string {
  return `${first.trimEnd()}\n\n— ${from} —\n\n${second.trimStart()}`;
}

/** The line above a note written in this browser before signing in, kept together with the notebook's. */
export const FROM_THIS_BROWSER = "Written in this browser before signing in";

// -- An anonymous reader's notes (plain: theirs, in this browser only) -------------------------

/** What this browser keeps of an anonymous reader's note. */
export interface LocalNote {
  note: NotePlain;
  at: string;
}

/** Kept by chapter slug, then subsection id. */
export type LocalNotes = Record<string, Record<string, LocalNote>>;

export function readLocalNotes(): LocalNotes {
  try {
    const all = (JSON.parse(localStorage.getItem(NOTEBOOK_LOCAL_KEY) || "{}") as LocalNotes) ?? {};
    // (Entries of another shape, a member's from before issue 42, are not an anonymous reader's notes.)
    for (const chapter of Object.values(all)) for (const [id, local] of Object.entries(chapter)) if (!local?.note) delete chapter[id];
    return all;
  } catch {
    return {};
  }
}

/** Keeps (or, with null, forgets) an anonymous reader's note. Only ever called while nobody is signed in, or to forget. */
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
    Object.entries(notes).flatMap(([id, local]) => (local.note.text.trim() ? [{ chapterSlug, subsectionId: Number(id), note: local.note }] : [])),
  );
}

/**
 * Moves the notes this browser kept before sign-in into the open notebook, but those of
 * `handled` (subsection ids a page is merging itself): a note already there keeps both texts,
 * the notebook's first. Each is forgotten here once the server holds it. Answers how many could
 * not be moved (a passage not open to the member, say: they stay in this browser).
 */
export async function adoptBrowserNotes(key: CryptoKey, info: NotebookInfo, handled: ReadonlySet<number> = new Set()): Promise<number> {
  let left = 0;
  for (const { chapterSlug, subsectionId, note } of anonymousNotes()) {
    if (handled.has(subsectionId)) continue;
    try {
      await saveNote(key, info.id, subsectionId, 0, note);
    } catch (error) {
      if (sessionEnded(error)) throw error;
      const current = error instanceof ApiError && error.code === "note_changed" ? (error.details.current as StoredNote | null) : null;
      if (!current) {
        left++;
        continue;
      }
      try {
        const theirs = current.ciphertext === null ? null : await readNote(key, info.id, current);
        // (A note of the notebook that cannot be opened here is never written over: this one waits.)
        if (typeof theirs === "string") {
          left++;
          continue;
        }
        await saveNote(key, info.id, subsectionId, current.version, theirs ? { ...theirs, text: keptTogether(theirs.text, note.text, FROM_THIS_BROWSER) } : note);
      } catch (again) {
        if (sessionEnded(again)) throw again;
        left++;
        continue;
      }
    }
    writeLocalNote(chapterSlug, subsectionId, null);
  }
  return left;
}

// -- A member's saves not yet confirmed (sealed) -----------------------------------------------

/** A member's save the server has not confirmed: the version it replaces, sealed for the next. */
export interface PendingSave {
  version: number;
  sealed: SealedNote;
  at: string;
}

interface PendingSaves {
  notebook: string;
  chapters: Record<string, Record<string, PendingSave>>;
}

function readPending(): PendingSaves | null {
  try {
    const value = JSON.parse(localStorage.getItem(NOTEBOOK_PENDING_KEY) ?? "null") as PendingSaves | null;
    return value && typeof value.notebook === "string" && value.chapters ? value : null;
  } catch {
    return null;
  }
}

function writePending(value: PendingSaves | null): void {
  try {
    if (value && Object.keys(value.chapters).length > 0) localStorage.setItem(NOTEBOOK_PENDING_KEY, JSON.stringify(value));
    else localStorage.removeItem(NOTEBOOK_PENDING_KEY);
  } catch {
    // storage unavailable: this page keeps it in memory only
  }
}

/** The saves of `notebook` waiting on one chapter, by subsection id. */
export function pendingSaves(notebook: string, chapterSlug: string): Record<string, PendingSave> {
  const pending = readPending();
  return pending?.notebook === notebook ? (pending.chapters[chapterSlug] ?? {}) : {};
}

/** Keeps (or, with null, forgets) a sealed save of `notebook` waiting to be sent. */
export function writePendingSave(notebook: string, chapterSlug: string, subsectionId: number, save: PendingSave | null): void {
  const before = readPending();
  const chapters = before?.notebook === notebook ? before.chapters : {};
  const chapter = { ...chapters[chapterSlug] };
  if (save) chapter[String(subsectionId)] = save;
  else delete chapter[String(subsectionId)];
  const next = { ...chapters, [chapterSlug]: chapter };
  if (Object.keys(chapter).length === 0) delete next[chapterSlug];
  writePending({ notebook, chapters: next });
}

