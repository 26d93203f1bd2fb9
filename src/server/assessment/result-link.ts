/**
 * The private link to a scan's result (issue 15): `/assessment/result#{token}`. The token is an
 * HMAC-SHA256 of the scan's id under the server's session key (256 bits, unguessable without the
 * key), so completing again answers the same link; the database keeps only its SHA-256, and a
 * link is looked up by that hash (an equality on a hash leaks nothing about the token). The token
 * rides in the address's fragment, which browsers never send: it is in no server or CDN log and in
 * no Referer header.
 */
import { createHash, createHmac } from "node:crypto";
import { sessionKey } from "../auth/secret.ts";

export const RESULT_PAGE = "/assessment/result";
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export function resultToken(sessionId: string): string {
  return createHmac("sha256", sessionKey()).update(`result-link:${sessionId}`).digest("base64url");
}

export function tokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Whether `text` has a token's shape (43 base64url characters). */
export function isResultToken(text: string): boolean {
  return TOKEN.test(text);
}

/** The link shown on 'Scan Complete' (site-relative). */
export function resultPath(token: string): string {
  return `${RESULT_PAGE}#${token}`;
}
