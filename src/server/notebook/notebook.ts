/**
 * The members' notebook on the server (issue 32): it keeps bytes it cannot read. A notebook is
 * the member's notebook key wrapped twice in their browser (src/lib/notebook/crypto.ts); a note is
 * AES-GCM ciphertext, its IV, a version and times. The server decides only what it can without
 * the text: whose notebook it is (the session's code, never one named in a request), which
 * passages may carry a note (a live subsection of a level the member may read), how many notes
 * and how large, which notebook a save was sealed for (one erased since is refused: 409), and
 * which version a save replaces (a save made from an older version is refused: 409, the current
 * one in the answer, so the member's browser can show both). A note's version only moves forward
 * within its notebook: an erased note keeps its row, without IV or ciphertext, and a note written
 * there again continues past it (issue 42: 5).
 */
import { sql } from "../db/orm.ts";
import type { Database } from "../db/types.ts";
import { accessCodes, chapters, notebooks, notes, subsections } from "../db/schema.ts";
import { conflict, HttpError, notFound } from "../http/errors.ts";
import { LEVELS, type Level } from "../../lib/levels.ts";
import { NOTE_MAX_CHARS } from "../../lib/notebook/limits.ts";
import { limitRefusal, limitStatement, limitWindowStatement, type Limit } from "../access/rate-limit.ts";

/** How long a notebook is kept once its code's access ended (expired or deactivated), for the member to download it. */
export const NOTEBOOK_KEPT_DAYS = 30;
/** The most notes one notebook holds. */
export const MAX_NOTES = 2000;
/**
 * The longest sealed note, in base64 characters: a note of 20,000 characters (src/lib/notebook:
 * NOTE_MAX_CHARS), each at most 3 bytes of UTF-8 and escaped at worst to 6 in JSON, with its
 * passage's names, then AES-GCM's 16-byte tag, as base64.
 */
export const MAX_CIPHERTEXT_CHARS = 4 * Math.ceil((NOTE_MAX_CHARS * 6 + 4096 + 16) / 3);
/** Saves per code: typing saves every few seconds at most, so a member stays far below this. */
export const NOTE_SAVE_LIMIT: Limit = { bucket: "notebook-save-code", max: 300, windowMs: 5 * 60 * 1000 };

export interface WrappedKeysRow {
  salt: string;
  iterations: number;
  byPassphrase: string;
  byRecovery: string;
}

/** A notebook as its member's browser gets it. */
export interface NotebookView extends WrappedKeysRow {
  id: string;
  version: number;
  createdAt: string;
  /** How many notes it holds (erased ones not counted). */
  notes: number;
  /** Whether the member showed they kept the current recovery key (false: the browser offers a new one). */
  recoveryKept: boolean;
}

/** A note as its member's browser gets it; an erased one has no IV or ciphertext, only its version. */
export interface SealedNoteView {
  subsectionId: number;
  version: number;
  iv: string | null;
  ciphertext: string | null;
  updatedAt: string;
}

/**
 * Where a note's passage is now, when the member may still read it: its chapter, level, the
 * chapter's place in its level and the subsection's number; null for a passage no longer open to
 * the member (moved above their level, withdrawn to a draft, deleted).
 */
export interface NotePlace {
  chapterSlug: string;
  chapterTitle: string;
  level: Level;
  chapterNumber: number;
  sectionSlug: string;
  sectionTitle: string;
  sectionNumber: number;
}

const iso = (value: Date | string) => new Date(value).toISOString();
const rank = (level: Level) => LEVELS.indexOf(level);
/** SQL: whether alias's row is live (published, not deleted). */
const live = (alias: string) => sql.raw(`${alias}."deleted_at" IS NULL AND ${alias}."status" = 'published'`);
/** SQL: the rank of the chapter under `alias`'s level (Operator 0). */
const levelRank = (alias: string) => sql.raw(`array_position(ARRAY['Operator','Architect','Mastermind'], coalesce(${alias}."level", 'Operator')) - 1`);
/** SQL: the number of subsection `s` in its chapter `c` (its place among the chapter's live ones). */
const sectionNumber = sql`(SELECT count(*) FROM ${subsections} n2 WHERE n2.chapter_id = c.id AND ${live("n2")} AND (n2."order", n2.id) <= (s."order", s.id))::integer`;
/** SQL: the number of chapter `c` in its level (its place among the level's live chapters). */
const chapterNumber = sql`(SELECT count(*) FROM ${chapters} c2 WHERE ${live("c2")} AND coalesce(c2.level, 'Operator') = coalesce(c.level, 'Operator')
  AND (c2."order", c2.id) <= (c."order", c.id))::integer`;

type PlaceRow = { chapter_slug: string; chapter_title: string; level: Level; chapter_number: number; section_slug: string; section_title: string; section_number: number };
const placeOf = (row: PlaceRow): NotePlace => ({
  chapterSlug: row.chapter_slug,
  chapterTitle: row.chapter_title,
  level: row.level,
  chapterNumber: Number(row.chapter_number),
  sectionSlug: row.section_slug,
  sectionTitle: row.section_title,
  sectionNumber: Number(row.section_number),
});

/** SQL: whether the note under `alias` holds words (an erased one keeps only its version). */
const hasWords = (alias: string) => sql.raw(`${alias}."ciphertext" IS NOT NULL`);

/** The refusal of a save or an erasure sealed for a notebook that is no longer the member's (erased, and maybe started again). */
const notebookChanged = () =>
  new HttpError(409, "notebook_changed", "Your notebook was erased on another device, and this note was sealed for it: it was not saved. Open your notebook again to keep it.");

export async function getNotebook(db: Database, accessCodeId: number): Promise<NotebookView | null> {
  const result = (await db.execute(sql`
    SELECT b.id, b.salt, b.iterations, b.by_passphrase, b.by_recovery, b.version, b.recovery_kept, b.created_at,
      (SELECT count(*) FROM ${notes} n WHERE n.access_code_id = b.access_code_id AND ${hasWords("n")})::integer AS notes
    FROM ${notebooks} b WHERE b.access_code_id = ${accessCodeId}`)) as unknown as {
    rows: Array<{
      id: string;
      salt: string;
      iterations: number;
      by_passphrase: string;
      by_recovery: string;
      version: number;
      recovery_kept: boolean;
      created_at: Date | string;
      notes: number;
    }>;
  };
  const row = result.rows[0];
  if (!row) return null;
  return {
    id: row.id,
    salt: row.salt,
    iterations: Number(row.iterations),
    byPassphrase: row.by_passphrase,
    byRecovery: row.by_recovery,
    version: Number(row.version),
    createdAt: iso(row.created_at),
    notes: Number(row.notes),
    recoveryKept: row.recovery_kept === true || String(row.recovery_kept) === "true",
  };
}

/** Starts the code's notebook (its recovery key not yet shown kept); 409 when it has one (another device started it first). */
export async function createNotebook(db: Database, accessCodeId: number, keys: WrappedKeysRow): Promise<NotebookView> {
  const created = await db
    .insert(notebooks)
    .values({ accessCodeId, ...keys, recoveryKept: false })
    .onConflictDoNothing()
    .returning({ id: notebooks.id });
  if (created.length === 0) throw conflict("This notebook was started already, on another device: open it with its passphrase.");
  return (await getNotebook(db, accessCodeId))!;
}

/** SQL: the code's notebook, at the wrapping `version`. */
const atWrapping = (accessCodeId: number, version: number) => sql`${notebooks.accessCodeId} = ${accessCodeId} AND ${notebooks.version} = ${version}`;

/** The notebook after a change made only over one wrapping: 409 `changed` when it changed none (another device changed it since), 404 without a notebook. */
async function afterWrappingChange(db: Database, accessCodeId: number, updated: readonly unknown[], changed: string): Promise<NotebookView> {
  if (updated.length === 0) {
    if (!(await getNotebook(db, accessCodeId))) throw notFound("There is no notebook: start one first.");
    throw conflict(changed);
  }
  return (await getNotebook(db, accessCodeId))!;
}

/**
 * Keeps the notebook key wrapped anew, replacing the wrapping of `version` only (409 when another
 * device changed it since): a forgotten passphrase replaced with the recovery key (which the
 * member has just shown they keep: `recoveryKept`), or a new recovery key (not kept until shown so).
 */
export async function rewrapNotebook(db: Database, accessCodeId: number, version: number, keys: WrappedKeysRow, recoveryKept: boolean): Promise<NotebookView> {
  const updated = await db
    .update(notebooks)
    .set({ ...keys, recoveryKept, version: sql`${notebooks.version} + 1`, updatedAt: new Date() })
    .where(atWrapping(accessCodeId, version))
    .returning({ id: notebooks.id });
  return afterWrappingChange(db, accessCodeId, updated, "The notebook's passphrase was changed on another device meanwhile. Reload and try again.");
}

/** Records that the member kept the recovery key of the wrapping at `version` (409 when it was wrapped anew since). */
export async function keepRecoveryKey(db: Database, accessCodeId: number, version: number): Promise<NotebookView> {
  const updated = await db.update(notebooks).set({ recoveryKept: true }).where(atWrapping(accessCodeId, version)).returning({ id: notebooks.id });
  return afterWrappingChange(db, accessCodeId, updated, "The notebook's keys were changed on another device meanwhile: that recovery key no longer opens it.");
}

/** Erases the notebook and every note in it; answers how many notes went. */
export async function eraseNotebook(db: Database, accessCodeId: number): Promise<{ notes: number }> {
  const result = (await db.execute(sql`
    WITH gone AS (DELETE FROM ${notebooks} WHERE access_code_id = ${accessCodeId} RETURNING access_code_id)
    SELECT (SELECT count(*) FROM ${notes} n WHERE n.access_code_id IN (SELECT access_code_id FROM gone) AND ${hasWords("n")})::integer AS notes`)) as unknown as {
    rows: Array<{ notes: number }>;
  };
  return { notes: Number(result.rows[0]?.notes ?? 0) };
}

const sealedColumns = sql`n.subsection_id, n.version, n.iv, n.ciphertext, n.updated_at`;
type SealedRow = { subsection_id: number; version: number; iv: string | null; ciphertext: string | null; updated_at: Date | string };
const sealedView = (row: SealedRow): SealedNoteView => ({
  subsectionId: Number(row.subsection_id),
  version: Number(row.version),
  iv: row.iv,
  ciphertext: row.ciphertext,
  updatedAt: iso(row.updated_at),
});

/**
 * The member's notes on the live chapter at `chapterSlug`, one statement: the code's notes (its
 * primary key's prefix) joined to the subsections that are in that chapter now. Erased ones are
 * in it too (a version and no words), so a note written there again continues past them.
 */
export async function chapterNotes(db: Database, accessCodeId: number, chapterSlug: string): Promise<SealedNoteView[]> {
  const result = (await db.execute(chapterNotesStatement(accessCodeId, chapterSlug))) as unknown as { rows: SealedRow[] };
  return result.rows.map(sealedView);
}

/** chapterNotes' statement, alone, so the bench can EXPLAIN the very statement the API runs. */
export const chapterNotesStatement = (accessCodeId: number, chapterSlug: string) => sql`
    SELECT ${sealedColumns}
    FROM ${notes} n
    JOIN ${subsections} s ON s.id = n.subsection_id AND ${live("s")}
    JOIN ${chapters} c ON c.id = s.chapter_id AND ${live("c")}
    WHERE n.access_code_id = ${accessCodeId} AND c.slug = ${chapterSlug}
    ORDER BY n.subsection_id`;

/**
 * Every note of the member's notebook with where its passage is now (null when it is no longer
 * open to them), in book order: level, the chapter's order, the subsection's; then the others.
 * Erased notes are not in it.
 */
export async function allNotes(db: Database, member: { accessCodeId: number; level: Level }): Promise<Array<SealedNoteView & { place: NotePlace | null }>> {
  const result = (await db.execute(sql`
    WITH placed AS (
      SELECT s.id, s.slug AS section_slug, s.title AS section_title, c.slug AS chapter_slug, c.title AS chapter_title,
        coalesce(c.level, 'Operator') AS level, ${levelRank("c")} AS level_rank, c."order" AS chapter_order, s."order" AS section_order,
        ${sectionNumber} AS section_number, ${chapterNumber} AS chapter_number
      FROM ${subsections} s JOIN ${chapters} c ON c.id = s.chapter_id
      WHERE ${live("s")} AND ${live("c")} AND ${levelRank("c")} <= ${rank(member.level)}
        AND s.id IN (SELECT subsection_id FROM ${notes} n WHERE access_code_id = ${member.accessCodeId} AND ${hasWords("n")})
    )
    SELECT ${sealedColumns}, p.chapter_slug, p.chapter_title, p.level, p.chapter_number, p.section_slug, p.section_title, p.section_number
    FROM ${notes} n LEFT JOIN placed p ON p.id = n.subsection_id
    WHERE n.access_code_id = ${member.accessCodeId} AND ${hasWords("n")}
    ORDER BY p.level_rank NULLS LAST, p.chapter_order, p.chapter_number, p.section_order, n.subsection_id`)) as unknown as {
    rows: Array<
      SealedRow & {
        chapter_slug: string | null;
        chapter_title: string;
        level: Level;
        chapter_number: number;
        section_slug: string;
        section_title: string;
        section_number: number;
      }
    >;
  };
  return result.rows.map((row) => ({ ...sealedView(row), place: row.chapter_slug === null ? null : placeOf(row as PlaceRow) }));
}

/**
 * A passage as a member names it (issue 43: "Ask about this passage"): its level, chapter (title,
 * place in its level) and subsection (title, number), when it is live and open to them; null otherwise.
 */
export async function passageOf(db: Database, member: { level: Level }, subsectionId: number): Promise<NotePlace | null> {
  const result = (await db.execute(sql`
    SELECT c.slug AS chapter_slug, c.title AS chapter_title, coalesce(c.level, 'Operator') AS level, s.slug AS section_slug, s.title AS section_title,
      ${sectionNumber} AS section_number, ${chapterNumber} AS chapter_number
    FROM ${subsections} s JOIN ${chapters} c ON c.id = s.chapter_id
    WHERE s.id = ${subsectionId} AND ${live("s")} AND ${live("c")} AND ${levelRank("c")} <= ${rank(member.level)}`)) as unknown as { rows: PlaceRow[] };
  const row = result.rows[0];
  return row ? placeOf(row) : null;
}

/** The live chapters (slugs) in which the member has notes they may read: what the session answer names. */
export async function noteChapters(db: Database, member: { accessCodeId: number; level: Level }): Promise<string[]> {
  const result = (await db.execute(sql`
    SELECT DISTINCT c.slug FROM ${notes} n
    JOIN ${subsections} s ON s.id = n.subsection_id AND ${live("s")}
    JOIN ${chapters} c ON c.id = s.chapter_id AND ${live("c")}
    WHERE n.access_code_id = ${member.accessCodeId} AND ${hasWords("n")} AND ${levelRank("c")} <= ${rank(member.level)}
    ORDER BY c.slug`)) as unknown as { rows: Array<{ slug: string }> };
  return result.rows.map((row) => row.slug);
}

export interface NoteSave {
  /** The notebook it was sealed for (its id): a save for one erased since is refused. */
  notebook: string;
  /** The version the save replaces: 0 for a note never written, an erased note's version to write it again. */
  version: number;
  iv: string;
  ciphertext: string;
}

/**
 * Saves a sealed note, in one transaction of two statements. First the notebook row is locked,
 * so saves of one code are taken in turn; then, in one statement whose snapshot is taken after
 * the lock (READ COMMITTED: a fresh one per statement, so it sees every save committed before it),
 * the save is counted against NOTE_SAVE_LIMIT, the notebook checked (the one it was sealed for:
 * 409 `notebook_changed` otherwise), the passage checked (a live subsection of a level the member
 * may read: 404 or 403 otherwise), and the note written only over the version it was made from
 * (409 with the current note otherwise) and within MAX_NOTES. A lock taken inside that
 * one statement would not do: its snapshot would predate the wait, and two saves from one
 * version would both be kept. Refusals are decided after the commit, so a refused save still counts.
 * Answers the saved note.
 */
export async function saveNote(db: Database, member: { accessCodeId: number; level: Level }, subsectionId: number, save: NoteSave, now = new Date()): Promise<SealedNoteView> {
  const code = member.accessCodeId;
  const result = await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT 1 FROM ${notebooks} WHERE access_code_id = ${code} FOR UPDATE`);
    return (await tx.execute(sql`
      WITH counted AS (${limitStatement(NOTE_SAVE_LIMIT, String(code), now)}),
      book AS (SELECT access_code_id, id::text AS id FROM ${notebooks} WHERE access_code_id = ${code}),
      passage AS (
        SELECT s.id, ${levelRank("c")} <= ${rank(member.level)} AS allowed
        FROM ${subsections} s JOIN ${chapters} c ON c.id = s.chapter_id
        WHERE s.id = ${subsectionId} AND ${live("s")} AND ${live("c")}
      ),
      current AS (SELECT ${sealedColumns} FROM ${notes} n WHERE n.access_code_id = ${code} AND n.subsection_id = ${subsectionId}),
      room AS (SELECT count(*) < ${MAX_NOTES} AS ok FROM ${notes} n WHERE access_code_id = ${code} AND ${hasWords("n")}),
      go AS (
        SELECT 1 WHERE EXISTS (SELECT 1 FROM counted WHERE counted."count" <= ${NOTE_SAVE_LIMIT.max})
          AND EXISTS (SELECT 1 FROM book WHERE id = ${save.notebook})
          AND EXISTS (SELECT 1 FROM passage WHERE allowed)
          AND coalesce((SELECT version FROM current), 0) = ${save.version}
          AND (EXISTS (SELECT 1 FROM current WHERE ciphertext IS NOT NULL) OR (SELECT ok FROM room))
      ),
      written AS (
        INSERT INTO ${notes} AS n (access_code_id, subsection_id, version, iv, ciphertext, created_at, updated_at)
        SELECT ${code}, ${subsectionId}, ${save.version + 1}, ${save.iv}, ${save.ciphertext}, ${now}, ${now} FROM go
        ON CONFLICT (access_code_id, subsection_id) DO UPDATE SET version = excluded.version, iv = excluded.iv, ciphertext = excluded.ciphertext, updated_at = excluded.updated_at
          WHERE n.version = ${save.version}
        RETURNING ${sealedColumns}
      )
      SELECT (SELECT row_to_json(w) FROM written w) AS written, (SELECT row_to_json(c) FROM current c) AS current,
        (SELECT id FROM book) AS book, (SELECT allowed FROM passage) AS allowed, (SELECT ok FROM room) AS room,
        (SELECT "count" FROM counted) AS saves, coalesce((SELECT "window_start" FROM counted), (${limitWindowStatement(NOTE_SAVE_LIMIT, String(code))})) AS saves_since`)) as unknown as {
      rows: Array<{
        written: SealedRow | string | null;
        current: SealedRow | string | null;
        book: string | null;
        allowed: boolean | null;
        room: boolean;
        saves: number | null;
        saves_since: Date | string | null;
      }>;
    };
  });
  const row = result.rows[0]!;
  const parsed = (value: SealedRow | string | null) => (typeof value === "string" ? (JSON.parse(value) as SealedRow) : value);
  const refusal = limitRefusal(NOTE_SAVE_LIMIT, row.saves === null ? null : Number(row.saves), row.saves_since, now);
  if (refusal) throw refusal;
  const written = parsed(row.written);
  if (written) return sealedView(written);
  if (!row.book) throw conflict("Start your notebook first: it needs its passphrase before a note can be kept.");
  if (row.book !== save.notebook) throw notebookChanged();
  if (row.allowed === null) throw notFound("There is no such passage to write beside.");
  if (!row.allowed) throw new HttpError(403, "forbidden", "Your access level does not include this passage.");
  const current = parsed(row.current);
  if ((current?.version ?? 0) === save.version && !current?.ciphertext && !row.room) {
    throw new HttpError(409, "notebook_full", `Your notebook holds ${MAX_NOTES} notes, its most. Erase a note you no longer need to write a new one.`);
  }
  throw new HttpError(409, "note_changed", "This note was changed on another device since you opened it.", undefined, { current: current ? sealedView(current) : null });
}

/**
 * Erases one note of the notebook `notebook` (its id), only over the version it was read at (409
 * with the current note otherwise): its words go, its row stays with the next version, which the
 * answer gives, so the note's versions only move forward. Taken in turn with the code's saves (the
 * notebook row's lock, as saveNote).
 */
export async function deleteNote(db: Database, accessCodeId: number, subsectionId: number, version: number, notebook: string): Promise<SealedNoteView> {
  const result = await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT 1 FROM ${notebooks} WHERE access_code_id = ${accessCodeId} FOR UPDATE`);
    return (await tx.execute(sql`
      WITH book AS (SELECT id::text AS id FROM ${notebooks} WHERE access_code_id = ${accessCodeId}),
      current AS (SELECT ${sealedColumns} FROM ${notes} n WHERE n.access_code_id = ${accessCodeId} AND n.subsection_id = ${subsectionId}),
      gone AS (
        UPDATE ${notes} n SET version = n.version + 1, iv = NULL, ciphertext = NULL, updated_at = now()
        WHERE n.access_code_id = ${accessCodeId} AND n.subsection_id = ${subsectionId} AND n.version = ${version} AND ${hasWords("n")}
          AND EXISTS (SELECT 1 FROM book WHERE id = ${notebook})
        RETURNING ${sealedColumns}
      )
      SELECT (SELECT row_to_json(g) FROM gone g) AS gone, (SELECT row_to_json(c) FROM current c) AS current, (SELECT id FROM book) AS book`)) as unknown as {
      rows: Array<{ gone: SealedRow | string | null; current: SealedRow | string | null; book: string | null }>;
    };
  });
  const row = result.rows[0]!;
  const parsed = (value: SealedRow | string | null) => (typeof value === "string" ? (JSON.parse(value) as SealedRow) : value);
  const gone = parsed(row.gone);
  if (gone) return sealedView(gone);
  if (!row.book) throw notFound("There is no notebook here: nothing to erase.");
  if (row.book !== notebook) throw notebookChanged();
  const current = parsed(row.current);
  if (!current || (!current.ciphertext && current.version === version)) throw notFound("There is no note here to erase.");
  throw new HttpError(409, "note_changed", "This note was changed on another device since you opened it.", undefined, { current: sealedView(current) });
}

/** Everything a member may take away: the notebook's wrapped keys and every sealed note (with where each passage is, if still open to them). */
export async function notebookExport(db: Database, member: { accessCodeId: number; level: Level }) {
  const notebook = await getNotebook(db, member.accessCodeId);
  if (!notebook) return null;
  return { notebook, notes: await allNotes(db, member) };
}

/** How many notes each code's notebook holds (no notebook: absent): the admin panel's counts, never the text. */
export async function noteCountsByCode(db: Database): Promise<Map<number, number>> {
  const result = (await db.execute(sql`
    SELECT b.access_code_id, count(n.ciphertext)::integer AS notes FROM ${notebooks} b
    LEFT JOIN ${notes} n ON n.access_code_id = b.access_code_id GROUP BY b.access_code_id`)) as unknown as { rows: Array<{ access_code_id: number; notes: number }> };
  return new Map(result.rows.map((row) => [Number(row.access_code_id), Number(row.notes)]));
}

/** How many members keep a notebook: what the Readers tab may say of notebooks. */
export async function notebookCount(db: Database): Promise<number> {
  const result = (await db.execute(sql`SELECT count(*)::integer AS n FROM ${notebooks}`)) as unknown as { rows: Array<{ n: number }> };
  return Number(result.rows[0]?.n ?? 0);
}

/**
 * Whether `code`'s access ended (expired or deactivated) more than NOTEBOOK_KEPT_DAYS before
 * `now`: its notebook is no longer given out, whether or not the retention job has erased it yet.
 * The same rule as eraseEndedNotebooks.
 */
export function notebookWindowClosed(code: { expiresAt: Date | null; isActive: string; deactivatedAt: Date | null }, now = new Date()): boolean {
  const before = now.getTime() - NOTEBOOK_KEPT_DAYS * 24 * 3600 * 1000;
  return (code.expiresAt !== null && code.expiresAt.getTime() < before) || (code.isActive === "false" && (code.deactivatedAt ?? now).getTime() < before);
}

/** Erases the notebooks of codes whose access ended (expired or deactivated) more than NOTEBOOK_KEPT_DAYS ago; answers how many. */
export async function eraseEndedNotebooks(db: Database, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - NOTEBOOK_KEPT_DAYS * 24 * 3600 * 1000);
  const result = (await db.execute(sql`
    DELETE FROM ${notebooks} b USING ${accessCodes} c
    WHERE c.id = b.access_code_id AND (
      (c.expires_at IS NOT NULL AND c.expires_at < ${before})
      OR (c.is_active = 'false' AND coalesce(c.deactivated_at, ${now}) < ${before})
    )
    RETURNING b.access_code_id`)) as unknown as { rows: unknown[] };
  return result.rows.length;
}
