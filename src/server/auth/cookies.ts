/** Reading and writing the session cookies. */
import { SESSION_ENDED_COOKIE, SIGNED_IN_COOKIE } from "../../lib/storage-keys.ts";
import { config } from "../config.ts";
import type { SessionEnding } from "./session-endings.ts";

export type SessionKind = "reader" | "admin";

/** `__Host-` cookies must be Secure, with Path=/ and no Domain: used whenever cookies are Secure. */
export function cookieName(kind: SessionKind): string {
  return `${config().secureCookies ? "__Host-" : ""}sb_${kind}`;
}

export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function sessionCookie(kind: SessionKind, token: string, maxAgeSeconds: number): string {
  const secure = config().secureCookies ? "; Secure" : "";
  return `${cookieName(kind)}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
}

/** A readable cookie's name as set: `__Host-` prefixed whenever cookies are Secure. */
const readableName = (name: string) => `${config().secureCookies ? "__Host-" : ""}${name}`;

/** A cookie the page's scripts may read (not HttpOnly), for `maxAgeSeconds` (0 clears it). */
function readableCookie(name: string, value: string, maxAgeSeconds: number): string {
  const secure = config().secureCookies ? "; Secure" : "";
  return `${readableName(name)}=${value}; Path=/; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
}

/** The name of the readable "signed in" cookie (`__Host-` prefixed whenever cookies are Secure). */
export function signedInCookieName(): string {
  return readableName(SIGNED_IN_COOKIE);
}

/**
 * The cookies a session of `kind` sets: its session cookie and, for a reader, the readable
 * "signed in" cookie with the same lifetime (src/lib/storage-keys.ts says what it is for).
 */
export function sessionCookies(kind: SessionKind, token: string, maxAgeSeconds: number): string[] {
  const session = sessionCookie(kind, token, maxAgeSeconds);
  return kind === "admin" ? [session] : [session, signedInCookie(maxAgeSeconds)];
}

/** The readable "signed in" cookie, for `maxAgeSeconds` (0 clears it). Not HttpOnly: the page script reads it. */
export function signedInCookie(maxAgeSeconds: number): string {
  return readableCookie(SIGNED_IN_COOKIE, maxAgeSeconds > 0 ? "1" : "", maxAgeSeconds);
}

/** How long the browser keeps the word that a session ended, for /resume (session-endings.ts). */
const ENDED_COOKIE_SECONDS = 600;

/** The readable cookie that tells /resume why the session ended (src/lib/storage-keys.ts). */
export function sessionEndedCookie(ending: SessionEnding): string {
  return readableCookie(SESSION_ENDED_COOKIE, ending, ENDED_COOKIE_SECONDS);
}

/** The cookies that clear a session of `kind` (for a reader, the "signed in" cookie too). */
export function clearedCookies(kind: SessionKind): string[] {
  return sessionCookies(kind, "", 0);
}

/** Whether a request carries any of a reader session's cookies. */
export function hasReaderCookies(request: Request): boolean {
  return readCookie(request, cookieName("reader")) !== undefined || readCookie(request, signedInCookieName()) !== undefined;
}
