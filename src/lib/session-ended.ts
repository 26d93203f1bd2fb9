/**
 * The server's word that this browser's reader session ended because its code signed in on
 * another device (issue 22: 8; src/server/auth/session-endings.ts): read once, then cleared.
 */
import { SESSION_ENDED_COOKIE } from "./storage-keys.ts";

/** Whether the word is there; clears it either way, so the reader is told once. */
export function takeSessionEnded(): boolean {
  let replaced = false;
  for (const part of document.cookie.split(";")) {
    const [name, value] = part.trim().split("=");
    if (name !== SESSION_ENDED_COOKIE && name !== `__Host-${SESSION_ENDED_COOKIE}`) continue;
    replaced ||= value === "replaced";
    document.cookie = `${name}=; Path=/; SameSite=Lax; Max-Age=0${name.startsWith("__Host-") ? "; Secure" : ""}`;
  }
  return replaced;
}
