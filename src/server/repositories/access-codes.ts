/**
 * Access codes: a login, a scrypt-hashed password and a level. Issued on enrolment; a deactivated
 * code opens nothing, and deactivating it ends its sessions at once.
 */
import { randomInt } from "node:crypto";
import { asc, eq, sql, type SQL } from "../db/orm.ts";
import type { Level } from "../../lib/levels.ts";
import type { Database } from "../db/types.ts";
import { accessCodes, sessions } from "../db/schema.ts";
import { generatePassword, hashPassword } from "../auth/password.ts";
import { conflict, notFound } from "../http/errors.ts";

/** What may be shown about a code: never its password or hash. */
export interface AccessCodeView {
  id: number;
  login: string;
  level: Level;
  isActive: boolean;
  createdAt: Date;
  usedAt: Date | null;
}

const viewColumns = {
  id: accessCodes.id,
  login: accessCodes.login,
  level: accessCodes.level,
  isActive: accessCodes.isActive,
  createdAt: accessCodes.createdAt,
  usedAt: accessCodes.usedAt,
};

type ViewRow = { id: number; login: string; level: string; isActive: string; createdAt: Date; usedAt: Date | null };
const toView = (row: ViewRow): AccessCodeView => ({ ...row, level: row.level as Level, isActive: row.isActive === "true" });

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

/** Issues a code; without a login or password, strong ones are generated. 409 when the login is taken. */
export async function issueAccessCode(
  db: Database,
  input: { level: Level; login?: string; password?: string },
): Promise<IssuedCode> {
  const password = input.password ?? generatePassword();
  const hash = await hashPassword(password);
  for (let attempt = 0; attempt < 5; attempt++) {
    const login = input.login ?? generateLogin(input.level);
    const [row] = await db
      .insert(accessCodes)
      .values({ login, password: hash, level: input.level })
      .onConflictDoNothing({ target: accessCodes.login })
      .returning({ login: accessCodes.login });
    if (row) return { login: row.login, password, level: input.level };
    if (input.login) throw conflict(`The access code "${input.login}" already exists.`);
  }
  throw conflict("Could not find a free login; try again.");
}

export async function listAccessCodes(db: Database): Promise<AccessCodeView[]> {
  return (await db.select(viewColumns).from(accessCodes).orderBy(asc(accessCodes.createdAt), asc(accessCodes.id))).map(toView);
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
      .set({ isActive: active ? "true" : "false" })
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

/** The statement that records a code's use (run with the session it opens: issueSession's `alsoWrite`). */
export function accessCodeUsedStatement(id: number, now = new Date()): SQL {
  return sql`UPDATE ${accessCodes} SET "used_at" = ${now} WHERE "id" = ${id}`;
}
