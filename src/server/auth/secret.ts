/**
 * The key that signs session tokens: SESSION_SECRET, or, when it is unset locally, 48
 * random bytes made once and kept in DATA_DIR (so sessions survive restarts). Several servers on
 * one database must share SESSION_SECRET.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { config, ConfigError } from "../config.ts";

let key: Uint8Array | undefined;

export function sessionKey(): Uint8Array {
  if (key) return key;
  const settings = config();
  let secret = settings.sessionSecret;
  if (!secret && settings.platform !== "local") {
    // Never made up on Netlify: every instance must sign with the same secret (config.ts demands it).
    throw new ConfigError("Configuration: SESSION_SECRET is not set. On Netlify set it in the site's environment variables.");
  }
  if (!secret) {
    const file = path.join(settings.dataDir, "session-secret");
    try {
      secret = fs.readFileSync(file, "utf8").trim();
    } catch {
      secret = randomBytes(48).toString("base64url");
      fs.mkdirSync(settings.dataDir, { recursive: true });
      fs.writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
    }
    if (Buffer.byteLength(secret) < 32) throw new Error(`${file} holds a secret shorter than 32 bytes: delete it to make a new one.`);
  }
  key = new TextEncoder().encode(secret);
  return key;
}

/** Forgets the cached key (tests that change configuration). */
export function resetSessionKey(): void {
  key = undefined;
}
