/**
 * Sessions: a signed token (jose, HS256) in an HttpOnly cookie names a row of the session store.
 * A token is accepted only with the right algorithm, issuer, audience and an unexpired `exp`, and
 * only while its row exists and has not expired: deleting the row (logout, a deactivated code,
 * a removed admin) revokes it at once.
 */
import { randomBytes } from "node:crypto";
import { and, eq, gt, isNull, or, sql, type SQL } from "../db/orm.ts";
import { SignJWT, jwtVerify } from "jose";
import type { Database } from "../db/types.ts";
import { accessCodes, adminAccounts, sessions } from "../db/schema.ts";
import { levelOf, type Level } from "../../lib/levels.ts";
import { clearedCookies, cookieName, readCookie, sessionCookies, type SessionKind } from "./cookies.ts";
import { sessionKey } from "./secret.ts";

export const ISSUER = "system-book";
export const audience = (kind: SessionKind) => `system-book:${kind}`;
export const SESSION_TTL_SECONDS: Record<SessionKind, number> = {
  reader: 30 * 24 * 3600,
  admin: 12 * 3600,
};

export interface IssuedSession {
  sid: string;
  token: string;
  /** The Set-Cookie values: the session cookie first (and a reader's "signed in" cookie). */
  cookies: string[];
}

/**
 * Creates a session row and its signed token for an access code or an admin account. `alsoWrite`:
 * statements that belong with it (a login's settled limits, the code's last use), run in the same
 * statement as the insert, so a sign-in costs one round trip here.
 */
export async function issueSession(
  db: Database,
  kind: SessionKind,
  owner: { accessCodeId?: number; adminId?: number },
  now = new Date(),
  alsoWrite: readonly SQL[] = [],
): Promise<IssuedSession> {
  return (await issueSessionWhile(db, kind, owner, null, now, alsoWrite))!;
}

/**
 * As `issueSession`, only while `guard` answers a row: an UPDATE ... RETURNING of the sign-in's
 * account row, conditioned on it being as it was when its password was verified
 * (`accessCodeSignedIn`), in the same statement as the insert; null, and no session, when it
 * answers none. The UPDATE locks the row, so a password reset or a deactivation that commits
 * while a sign-in verifies the old password leaves no session behind: either the sign-in waits
 * for it and finds the row changed, or it waits for the sign-in and ends the session it made
 * (issue 21: 11).
 */
export async function issueSessionWhile(
  db: Database,
  kind: SessionKind,
  owner: { accessCodeId?: number; adminId?: number },
  guard: SQL | null,
  now = new Date(),
  alsoWrite: readonly SQL[] = [],
): Promise<IssuedSession | null> {
  const ttl = SESSION_TTL_SECONDS[kind];
  const sid = randomBytes(24).toString("base64url");
  const expire = new Date(now.getTime() + ttl * 1000);
  const insert = guard
    ? sql`INSERT INTO ${sessions} ("sid", "sess", "expire", "access_code_id", "admin_id")
        SELECT ${sid}::text, ${JSON.stringify({ kind })}::jsonb, ${expire.toISOString()}::timestamptz, ${owner.accessCodeId ?? null}::integer, ${owner.adminId ?? null}::integer
         WHERE EXISTS (SELECT 1 FROM guard) RETURNING "sid"`
    : sql`INSERT INTO ${sessions} ("sid", "sess", "expire", "access_code_id", "admin_id")
        VALUES (${sid}, ${JSON.stringify({ kind })}::jsonb, ${expire}, ${owner.accessCodeId ?? null}, ${owner.adminId ?? null}) RETURNING "sid"`;
  const writes = [...alsoWrite.map((statement, i) => sql`${sql.raw(`also_${i}`)} AS (${statement})`), ...(guard ? [sql`guard AS (${guard})`] : [])];
  const result = (await db.execute(writes.length > 0 ? sql`WITH ${sql.join(writes, sql`, `)} ${insert}` : insert)) as unknown as { rows: unknown[] };
  if (result.rows.length === 0) return null;
  // Expired rows are deleted by the daily retention job (src/server/maintenance/retention.ts).
  const token = await new SignJWT({ kind })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setJti(sid)
    .setIssuer(ISSUER)
    .setAudience(audience(kind))
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor(expire.getTime() / 1000))
    .sign(sessionKey());
  return { sid, token, cookies: sessionCookies(kind, token, ttl) };
}

/**
 * Tokens whose signature and claims were already checked, by kind and token, with the key they
 * were checked with: a token is checked once per process (an HMAC with its key import costs more
 * than the rest of a kept page's answer), and its expiry at every use. Revocation does not depend
 * on it: the session's row is still read at every request.
 */
const verifiedTokens = new Map<string, { sid: string; exp: number; key: Uint8Array }>();
const VERIFIED_TOKENS_KEPT = 10_000;

/** The session id a request's cookie proves, or null for a missing, tampered, expired or foreign token. */
export async function verifiedSid(request: Request, kind: SessionKind, now = new Date()): Promise<string | null> {
  const token = readCookie(request, cookieName(kind));
  if (!token) return null;
  const key = sessionKey();
  const seconds = Math.floor(now.getTime() / 1000);
  const known = verifiedTokens.get(`${kind}:${token}`);
  // As jose's check: a token is expired from its `exp` second on.
  if (known && known.key === key) return known.exp > seconds ? known.sid : null;
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ["HS256"],
      issuer: ISSUER,
      audience: audience(kind),
      requiredClaims: ["exp", "jti"],
      currentDate: now,
    });
    if (!payload.jti) return null;
    if (verifiedTokens.size >= VERIFIED_TOKENS_KEPT) verifiedTokens.clear();
    verifiedTokens.set(`${kind}:${token}`, { sid: payload.jti, exp: payload.exp!, key });
    return payload.jti;
  } catch {
    return null;
  }
}

export interface ReaderSession {
  sid: string;
  accessCodeId: number;
  level: Level;
  /** When the session ends. */
  expire: Date;
}

/**
 * The reader session a request carries, checked against the store and the code's current state:
 * active and not past its end date (so a session ends with its code, at every request, in the
 * same single lookup).
 */
export async function readerSession(db: Database, request: Request, now = new Date()): Promise<ReaderSession | null> {
  const sid = await verifiedSid(request, "reader", now);
  if (!sid) return null;
  const [row] = await db
    .select({ sid: sessions.sid, accessCodeId: accessCodes.id, level: accessCodes.level, expire: sessions.expire })
    .from(sessions)
    .innerJoin(accessCodes, eq(accessCodes.id, sessions.accessCodeId))
    .where(liveReaderSession(sid, now));
  return row ? { ...row, level: levelOf(row.level) } : null;
}

/**
 * What makes `sid` a live reader session (of sessions joined with access_codes) at `now`: one
 * definition. Either may be a column of the statement it is part of (for a prepared statement).
 */
function liveReaderSession(sid: string | SQL, now: Date | SQL): SQL {
  return and(
    eq(sessions.sid, sid),
    gt(sessions.expire, now),
    eq(accessCodes.isActive, "true"),
    or(isNull(accessCodes.expiresAt), gt(accessCodes.expiresAt, now)),
  )!;
}

/**
 * The level of the live reader session `sid` names at `now` (both columns of the statement it is
 * part of), as a scalar subquery: null without one (a null `sid` names none). For a prepared
 * statement that checks sessions with what it reads (the chapter page: one round trip, planned
 * once per connection).
 */
export function readerLevelOf(sid: SQL, now: SQL): SQL<string | null> {
  return sql<string | null>`(SELECT ${accessCodes.level} FROM ${sessions}
  INNER JOIN ${accessCodes} ON ${accessCodes.id} = ${sessions.accessCodeId}
  WHERE ${liveReaderSession(sid, now)})`;
}

export interface AdminSession {
  sid: string;
  adminId: number;
  email: string;
}

/** The admin session a request carries, checked against the store. */
export async function adminSession(db: Database, request: Request, now = new Date()): Promise<AdminSession | null> {
  const sid = await verifiedSid(request, "admin", now);
  if (!sid) return null;
  const [row] = await db
    .select({ sid: sessions.sid, adminId: adminAccounts.id, email: adminAccounts.email })
    .from(sessions)
    .innerJoin(adminAccounts, eq(adminAccounts.id, sessions.adminId))
    .where(and(eq(sessions.sid, sid), gt(sessions.expire, now)));
  return row ?? null;
}

/** Revokes the request's session of `kind` (if any); answers the Set-Cookie values that clear it. */
export async function endSession(db: Database, request: Request, kind: SessionKind): Promise<string[]> {
  const sid = await verifiedSid(request, kind);
  if (sid) await db.delete(sessions).where(eq(sessions.sid, sid));
  return clearedCookies(kind);
}
