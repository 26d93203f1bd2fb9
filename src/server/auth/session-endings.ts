/**
 * Why a reader session ended, where the reader should be told (issue 22: 8). The trigger
 * `sessions_cap` (migration 0014) records the sessions a sign-in beyond its code's cap ends, by
 * the SHA-256 of their sid; the session answer that clears such a session's cookies also sets a
 * short-lived readable cookie (cookies.ts `sessionEndedCookie`), and /resume tells the reader
 * their code signed in elsewhere.
 */
import { createHash } from "node:crypto";
import { eq } from "../db/orm.ts";
import { sessionEndings } from "../db/schema.ts";
import type { Database } from "../db/types.ts";

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
