/**
 * What a request may read. The server decides on every request; the browser's stored state only
 * drives the UI.
 */
import { canAccess, levelOf, type Level } from "../../lib/levels.ts";
import { adminSession, readerSession } from "../auth/session.ts";
import { database } from "../db/index.ts";
import { forbidden, unauthenticated } from "../http/errors.ts";

/**
 * The level the request may read at: its reader session's level, Mastermind (everything) for an
 * admin, or null without a valid session.
 */
export async function readerLevel(request: Request): Promise<Level | null> {
  const db = await database();
  const reader = await readerSession(db, request);
  if (reader) return reader.level;
  return (await adminSession(db, request)) ? "Mastermind" : null;
}

/**
 * Throws 401 (no session) or 403 (too low a level) unless the request may read `level` content.
 * Answers the tier it is read at: the reader's level for a locked level; for Operator, which is
 * the same for everyone, "Operator" (no session is asked for).
 */
export async function requireReadable(request: Request, level: string | null): Promise<Level> {
  const required = levelOf(level);
  if (required === "Operator") return "Operator";
  const held = await readerLevel(request);
  if (held === null) throw unauthenticated(`Sign in with an access code to read ${required} chapters.`);
  if (!canAccess(held, required)) throw forbidden(`${required} chapters need ${required} access.`);
  return held;
}
