/**
 * The guard of every admin route: 401 without an admin session, 403 for a reader session (a
 * client signed in with an access code is not an admin).
 */
import { adminSession, readerSession, type AdminSession } from "../auth/session.ts";
import { database } from "../db/index.ts";
import { HttpError } from "../http/errors.ts";

export async function requireAdmin(request: Request): Promise<AdminSession> {
  const db = await database();
  const admin = await adminSession(db, request);
  if (admin) return admin;
  if (await readerSession(db, request)) {
    throw new HttpError(403, "forbidden", "This needs an admin account; an access code does not open the admin panel.");
  }
  throw new HttpError(401, "unauthenticated", "Sign in to the admin panel first.");
}
