/** Reading and writing the session cookies. */
import { config } from "../config.ts";

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

export function sessionCookie(kind: SessionKind, token: string, maxAgeSeconds: number): string {
  const secure = config().secureCookies ? "; Secure" : "";
  return `${cookieName(kind)}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`;
}

export function clearedCookie(kind: SessionKind): string {
  return sessionCookie(kind, "", 0);
}
