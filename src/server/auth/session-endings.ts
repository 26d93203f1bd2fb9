/**
 * Why a reader session ended, where the reader should be told (issue 22: 8). The trigger
 * `sessions_cap` (migration 0014) records the sessions a sign-in beyond its code's cap ends, by
 * the SHA-256 of their sid; the session answer that clears such a session's cookies also sets a
 * short-lived readable cookie, and /resume tells the reader their code signed in elsewhere.
 */
import { createHash } from "node:crypto";
import { SESSION_ENDED_COOKIE } from "../../lib/storage-keys.ts";
import { eq } from "../db/orm.ts";
import { sessionEndings } from "../db/schema.ts";
import type { Database } from "../db/types.ts";
import { config } from "../config.ts";

export type SessionEnding = "replaced";

/** How the table keys a sid: hex SHA-256 of its UTF-8 bytes (the trigger computes the same). */
export function sidHash(sid: string): string {
  return createHash("sha256").update(sid, "utf8").digest("hex");
}

/** Why the session `sid` ended, if it was recorded. */
export async function sessionEnding(db: Database, sid: string): Promise<SessionEnding | null> {
  const [row] = await db.select({ reason: sessionEndings.reason }).from(sessionEndings).where(eq(sessionEndings.sidHash, sidHash(sid)));
  return row?.reason === "replaced" ? "replaced" : null;
}

/** How long the browser keeps the word for /resume. */
const ENDED_COOKIE_SECONDS = 600;

/** The readable cookie that carries `ending` to /resume (not HttpOnly: the page reads and clears it). */
export function sessionEndedCookie(ending: SessionEnding): string {
  const secure = config().secureCookies;
  return `${secure ? "__Host-" : ""}${SESSION_ENDED_COOKIE}=${ending}; Path=/; SameSite=Lax; Max-Age=${ENDED_COOKIE_SECONDS}${secure ? "; Secure" : ""}`;
}
