/**
 * The members' notebook (issue 32): GET/POST/PUT/DELETE /api/notebook (its wrapped keys), that its
 * recovery key was kept, the notes of a chapter or of the whole notebook, a note's save and
 * erasure, and the export an ended code's member takes away with its code and password. Every
 * call but the export acts on the session's own code: no request names another.
 */
import { z } from "../../lib/zod.ts";
import { levelOf } from "../../lib/levels.ts";
import { readerSession } from "../auth/session.ts";
import { checkLogin } from "../auth/login.ts";
import { database } from "../db/index.ts";
import { badRequest, HttpError, notFound, unauthenticated } from "../http/errors.ts";
import { clientAddress, parseWith, readJson } from "../http/request.ts";
import { json, route } from "../http/respond.ts";
import { findAccessCode } from "../repositories/access-codes.ts";
import { FAILED_LOGIN_MESSAGE } from "./auth.ts";
import {
  allNotes,
  chapterNotes,
  createNotebook,
  deleteNote,
  eraseNotebook,
  getNotebook,
  keepRecoveryKey,
  MAX_CIPHERTEXT_CHARS,
  NOTEBOOK_KEPT_DAYS,
  notebookExport,
  notebookWindowClosed,
  rewrapNotebook,
  saveNote,
} from "../notebook/notebook.ts";
import { conversationExport } from "../messages/direct-line.ts";

/** A base64 string of at most `max` characters. */
const base64 = (max: number) =>
  z
    .string()
    .min(1, "is required")
    .max(max, `is longer than ${max} characters`)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, "is not base64");

const wrappedKeys = z.object({
  salt: base64(64),
  iterations: z.number().int().min(600_000, "must be at least 600000").max(10_000_000, "is too many"),
  byPassphrase: base64(256),
  byRecovery: base64(256),
});

/** A notebook's id, as a save names the notebook it was sealed for. */
const notebookId = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, "is not a notebook's id");

const noteSave = z.object({
  notebook: notebookId,
  version: z.number().int().min(0, "cannot be negative").max(2_000_000_000, "is too large"),
  iv: base64(24).refine((text) => byteLength(text) === 12, "must be 12 bytes"),
  ciphertext: base64(MAX_CIPHERTEXT_CHARS).refine((text) => text.length >= 24, "is too short to be a sealed note"),
});

/** How many bytes a base64 string holds (-1 when it is not base64). */
function byteLength(text: string): number {
  try {
    return atob(text).length;
  } catch {
    return -1;
  }
}

/** A note's body may be this large (JSON and its ciphertext at their longest). */
const NOTE_BODY_LIMIT = MAX_CIPHERTEXT_CHARS + 1024;

async function requireMember(request: Request) {
  const session = await readerSession(await database(), request);
  if (!session) throw unauthenticated("Sign in with your access code to keep a notebook.");
  return session;
}

function subsectionIdOf(text: string): number {
  const id = Number(text);
  if (!/^\d{1,10}$/.test(text) || !Number.isSafeInteger(id) || id < 1) throw notFound("There is no such passage.");
  return id;
}

/** /api/notebook: the member's notebook (its wrapped keys and how many notes), start it, wrap it anew, or erase it whole. */
export const notebook = route({
  GET: async (request) => {
    const member = await requireMember(request);
    return json({ notebook: await getNotebook(await database(), member.accessCodeId) });
  },
  POST: async (request) => {
    const keys = await readJson(request, wrappedKeys);
    const member = await requireMember(request);
    return json({ notebook: await createNotebook(await database(), member.accessCodeId, keys) }, { status: 201 });
  },
  PUT: async (request) => {
    const { version, recoveryKept, ...keys } = await readJson(request, wrappedKeys.extend({ version: z.number().int().min(1), recoveryKept: z.boolean() }));
    const member = await requireMember(request);
    return json({ notebook: await rewrapNotebook(await database(), member.accessCodeId, version, keys, recoveryKept) });
  },
  DELETE: async (request) => {
    const member = await requireMember(request);
    return json(await eraseNotebook(await database(), member.accessCodeId));
  },
});

/** PUT /api/notebook/recovery {version}: the member kept the recovery key of the wrapping at `version`. */
export const notebookRecovery = route({
  PUT: async (request) => {
    const { version } = await readJson(request, z.object({ version: z.number().int().min(1, "must be at least 1") }));
    const member = await requireMember(request);
    return json({ notebook: await keepRecoveryKey(await database(), member.accessCodeId, version) });
  },
});

/**
 * GET /api/notebook/notes[?chapter=SLUG]: the member's sealed notes, of one chapter (with the
 * notebook itself, so a chapter page asks once) or all (with where each passage is now).
 */
export const notebookNotes = route({
  GET: async (request) => {
    const member = await requireMember(request);
    const db = await database();
    const chapter = new URL(request.url).searchParams.get("chapter");
    if (chapter !== null) {
      if (!/^[a-z0-9-]{1,200}$/.test(chapter)) throw badRequest("chapter: is not a chapter's address.");
      const [notebook, notes] = await Promise.all([getNotebook(db, member.accessCodeId), chapterNotes(db, member.accessCodeId, chapter)]);
      return json({ notebook, notes });
    }
    return json({ notes: await allNotes(db, member) });
  },
});

/** PUT /api/notebook/notes/{subsectionId} {notebook, version, iv, ciphertext}; DELETE ...?version=N&notebook=ID (answers the erased note's next version). */
export const notebookNote = route<[subsectionId: string]>({
  PUT: async (request, id) => {
    const subsectionId = subsectionIdOf(id);
    const body = await readJson(request, noteSave, NOTE_BODY_LIMIT);
    const member = await requireMember(request);
    return json({ note: await saveNote(await database(), member, subsectionId, body) });
  },
  DELETE: async (request, id) => {
    const subsectionId = subsectionIdOf(id);
    const params = new URL(request.url).searchParams;
    const version = Number(params.get("version"));
    if (!Number.isSafeInteger(version) || version < 1) throw badRequest("version: is required (the version of the note being erased).");
    const notebook = parseWith(notebookId, params.get("notebook") ?? "");
    const member = await requireMember(request);
    return json({ note: await deleteNote(await database(), member.accessCodeId, subsectionId, version, notebook) });
  },
});

const exportBody = z.object({
  login: z.string().trim().min(1, "is required").max(100, "is too long"),
  password: z.string().min(1, "is required").max(200, "is too long"),
});

/**
 * POST /api/notebook/export {login, password}: the notebook of that access code, sealed as it is
 * kept, for its member to open in the browser with their passphrase or recovery key: also once
 * the code has expired or been deactivated, for NOTEBOOK_KEPT_DAYS (410 after, checked here
 * whether or not the retention job has run). Its attempts count in sign-in's own budget (one per
 * code and per address for both doors).
 */
export const notebookExportRoute = route({
  POST: async (request) => {
    const { login, password } = await readJson(request, exportBody);
    const db = await database();
    const { account: code, settle } = await checkLogin(
      db,
      "reader",
      { account: login.toLowerCase(), password, address: clientAddress(request) },
      async () => {
        const row = await findAccessCode(db, login);
        // An ended code opens its notebook here: ended is what this is for.
        return row && { ...row, passwordHash: row.password, enabled: true };
      },
      FAILED_LOGIN_MESSAGE,
    );
    for (const statement of settle) await db.execute(statement);
    if (notebookWindowClosed(code)) {
      throw new HttpError(410, "notebook_gone", `This access code ended more than ${NOTEBOOK_KEPT_DAYS} days ago: its notebook is no longer kept.`);
    }
    const exported = await notebookExport(db, { accessCodeId: code.id, level: levelOf(code.level) });
    if (!exported) throw notFound("This access code has no notebook (none was started, or it has been erased).");
    // The direct line goes with it (issue 43): sealed, opened in the browser with the notebook's key.
    return json({ ...exported, conversation: await conversationExport(db, code.id) });
  },
});
