/**
 * Access codes: a login, a scrypt-hashed password and a level. Issued on enrollment; a deactivated
 * code opens nothing, and deactivating it ends its sessions at once. A code may have an end date
 * (its sessions end with it) and a cap on its sessions at once (a sign-in beyond it ends the
 * oldest: the trigger `sessions_cap`, migration 0008).
 */
import { randomInt } from "node:crypto";
import { and, asc, desc, eq, gt, notInArray, sql, type SQL } from "../db/orm.ts";
import type { Level } from "../../lib/levels.ts";
import type { Database } from "../db/types.ts";
import { accessCodes, sessions } from "../db/schema.ts";
import { DEFAULT_MAX_SESSIONS } from "../../lib/content-schemas.ts";
import { generatePassword, hashPassword } from "../auth/password.ts";
import { conflict, notFound } from "../http/errors.ts";

/** What may be shown about a code: never its password or hash. */
export interface AccessCodeView {
  id: number;
  login: string;
  level: Level;
  isActive: boolean;
  createdAt: Date;
  /** The last sign-in. */
  usedAt: Date | null;
  /** When the code ends, or null for never. */
  expiresAt: Date | null;
  /** Whether the end date has passed: the code opens nothing and signs nobody in. */
  expired: boolean;
  /** How many sessions it may have at once. */
  maxSessions: number;
}

/** A code as the list shows it: with its sessions open now and its last use. */
export interface AccessCodeListEntry extends AccessCodeView {
  activeSessions: number;
  /** How many notes the member's notebook holds (issue 32; never their text), or null without a notebook. */
  notebookNotes: number | null;
  /** The last sign-in or page read with it, whichever is later. */
  lastUsedAt: Date | null;
}

const viewColumns = {
  id: accessCodes.id,
  login: accessCodes.login,
  level: accessCodes.level,
  isActive: accessCodes.isActive,
  createdAt: accessCodes.createdAt,
  usedAt: accessCodes.usedAt,
  expiresAt: accessCodes.expiresAt,
  maxSessions: accessCodes.maxSessions,
};

type ViewRow = {
  id: number;
  login: string;
  level: string;
  isActive: string;
  createdAt: Date;
  usedAt: Date | null;
  expiresAt: Date | null;
  maxSessions: number;
};
const toView = (row: ViewRow, now = new Date()): AccessCodeView => ({
  ...row,
  level: row.level as Level,
  isActive: row.isActive === "true",
  expired: row.expiresAt !== null && row.expiresAt <= now,
});

/** Whether a code's end date has passed at `now`. */
export const hasExpired = (code: { expiresAt: Date | null }, now = new Date()) => code.expiresAt !== null && code.expiresAt <= now;

export const LOGIN_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{2,63}$/;

/** A login in the style the login form suggests: the level's name followed by digits. */
export function generateLogin(level: Level): string {
  return `${level}${randomInt(1000, 1_000_000)}`;
}

export interface IssuedCode {
  login: string;
  /** Shown once, here; only its hash is stored. */
  password: string;
  level: Level;
}

/** A newly issued code: its credentials and its limits. */
export interface IssuedAccessCode extends IssuedCode {
  expiresAt: Date | null;
  maxSessions: number;
}

/**
 * Issues a code; without a login or password, strong ones are generated; without limits it never
 * ends and allows DEFAULT_MAX_SESSIONS sessions. 409 when the login is taken.
 */
export async function issueAccessCode(
  db: Database,
  input: { level: Level; login?: string; password?: string; expiresAt?: Date | null; maxSessions?: number },
): Promise<IssuedAccessCode> {
  const password = input.password ?? generatePassword();
  const hash = await hashPassword(password);
  const limits = { expiresAt: input.expiresAt ?? null, maxSessions: input.maxSessions ?? DEFAULT_MAX_SESSIONS };
  for (let attempt = 0; attempt < 5; attempt++) {
    const login = input.login ?? generateLogin(input.level);
    const [row] = await db
      .insert(accessCodes)
      .values({ login, password: hash, level: input.level, ...limits })
      .onConflictDoNothing({ target: accessCodes.login })
      .returning({ login: accessCodes.login });
    if (row) return { login: row.login, password, level: input.level, ...limits };
    if (input.login) throw conflict(`The access code "${input.login}" already exists.`);
  }
  throw conflict("Could not find a free login; try again.");
}

/** Every code, oldest first, with its sessions open at `now` and its last use. One statement. */
export async function listAccessCodes(db: Database, now = new Date()): Promise<AccessCodeListEntry[]> {
  const rows = await db
    .select({
      ...viewColumns,
      // An expired code's sessions open nothing, though their rows wait for the retention job.
      // Written out with table names: in a one-table select drizzle leaves columns unqualified, and
      // an unqualified "id" inside the subquery would be the subquery's own table's.
      activeSessions: sql<number>`CASE WHEN "access_codes"."expires_at" <= ${now} THEN 0 ELSE
        (SELECT count(*) FROM "sessions" s WHERE s.access_code_id = "access_codes"."id" AND s.expire > ${now}) END`.mapWith(Number),
      lastReadAt: sql<Date | null>`(SELECT max(r.last_at) FROM "reading_days" r WHERE r.access_code_id = "access_codes"."id")`.mapWith(
        (value: unknown) => (value === null ? null : new Date(value as string)),
      ),
      notebookNotes: sql<number | null>`CASE WHEN EXISTS (SELECT 1 FROM "notebooks" b WHERE b.access_code_id = "access_codes"."id")
        THEN (SELECT count(*) FROM "notes" n WHERE n.access_code_id = "access_codes"."id") END`.mapWith((value: unknown) => (value === null ? null : Number(value))),
    })
    .from(accessCodes)
    .orderBy(asc(accessCodes.createdAt), asc(accessCodes.id));
  return rows.map(({ activeSessions, lastReadAt, notebookNotes, ...row }) => ({
    ...toView(row, now),
    activeSessions,
    notebookNotes,
    lastUsedAt: [row.usedAt, lastReadAt].reduce<Date | null>((latest, at) => (at && (!latest || at > latest) ? at : latest), null),
  }));
}

/** The stored row for a login (with its hash), for checking a login attempt. */
export async function findAccessCode(db: Database, login: string) {
  const [row] = await db.select().from(accessCodes).where(eq(accessCodes.login, login));
  return row;
}

/** Activates or deactivates a code; deactivating ends its sessions in the same transaction. */
export async function setAccessCodeActive(db: Database, login: string, active: boolean): Promise<AccessCodeView> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(accessCodes)
      // (Deactivated since the first time: a second deactivation keeps when its access ended.)
      .set({ isActive: active ? "true" : "false", deactivatedAt: active ? null : sql`coalesce(${accessCodes.deactivatedAt}, now())` })
      .where(eq(accessCodes.login, login))
      .returning(viewColumns);
    if (!row) throw notFound(`No access code "${login}".`);
    if (!active) await tx.delete(sessions).where(eq(sessions.accessCodeId, row.id));
    return toView(row);
  });
}

/** Sets a new password (generated when not given), ending the code's sessions. Answers it once. */
export async function resetAccessCodePassword(db: Database, login: string, password = generatePassword()): Promise<IssuedCode> {
  const hash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const [row] = await tx.update(accessCodes).set({ password: hash }).where(eq(accessCodes.login, login)).returning(viewColumns);
    if (!row) throw notFound(`No access code "${login}".`);
    await tx.delete(sessions).where(eq(sessions.accessCodeId, row.id));
    return { login: row.login, password, level: row.level as Level };
  });
}

/**
 * Changes a code's end date and session cap (an absent field stays as it is). A code that had
 * already ended keeps its old sessions ended: they are deleted, so a new end date revives none.
 * A lower cap ends the oldest sessions beyond it at once. One transaction, the code's row locked.
 */
export async function setAccessCodeLimits(db: Database, login: string, limits: { expiresAt?: Date | null; maxSessions?: number }, now = new Date()): Promise<AccessCodeView> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ id: accessCodes.id, expiresAt: accessCodes.expiresAt })
      .from(accessCodes)
      .where(eq(accessCodes.login, login))
      .for("no key update");
    if (!before) throw notFound(`No access code "${login}".`);
    const changes: Partial<Pick<ViewRow, "expiresAt" | "maxSessions">> = {};
    if (limits.expiresAt !== undefined) changes.expiresAt = limits.expiresAt;
    if (limits.maxSessions !== undefined) changes.maxSessions = limits.maxSessions;
    const [row] =
      Object.keys(changes).length > 0
        ? await tx.update(accessCodes).set(changes).where(eq(accessCodes.id, before.id)).returning(viewColumns)
        : await tx.select(viewColumns).from(accessCodes).where(eq(accessCodes.id, before.id));
    if (hasExpired(before, now)) {
      await tx.delete(sessions).where(eq(sessions.accessCodeId, before.id));
    } else if (limits.maxSessions !== undefined) {
      const kept = tx
        .select({ sid: sessions.sid })
        .from(sessions)
        .where(and(eq(sessions.accessCodeId, before.id), gt(sessions.expire, now)))
        .orderBy(desc(sessions.createdAt), desc(sessions.sid))
        .limit(limits.maxSessions);
      await tx.delete(sessions).where(and(eq(sessions.accessCodeId, before.id), notInArray(sessions.sid, kept)));
    }
    return toView(row!, now);
  });
}

/** Ends every session of a code (its readers must sign in again); answers how many were open. */
export async function endAccessCodeSessions(db: Database, login: string, now = new Date()): Promise<{ login: string; ended: number }> {
  return db.transaction(async (tx) => {
    const [code] = await tx.select({ id: accessCodes.id, expiresAt: accessCodes.expiresAt }).from(accessCodes).where(eq(accessCodes.login, login));
    if (!code) throw notFound(`No access code "${login}".`);
    const ended = await tx.delete(sessions).where(eq(sessions.accessCodeId, code.id)).returning({ expire: sessions.expire });
    return { login, ended: hasExpired(code, now) ? 0 : ended.filter((session) => session.expire > now).length };
  });
}

/**
 * A sign-in's guard (issueSessionWhile): records the code's use, only while the code is still
 * active with the password hash the sign-in verified, and answers its row then. Locking the row,
 * it orders the sign-in against a reset or a deactivation of the same code.
 */
export function accessCodeSignedIn(code: { id: number; password: string }, now = new Date()): SQL {
  return sql`UPDATE ${accessCodes} SET "used_at" = ${now} WHERE "id" = ${code.id} AND "password" = ${code.password} AND "is_active" = 'true' RETURNING "id"`;
}
