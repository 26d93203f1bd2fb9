/**
 * Password hashing with scrypt (node:crypto). Stored as `scrypt$N$r$p$salt$hash` (base64url), so
 * the cost can rise later without breaking stored hashes. Passwords are never stored or logged.
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from "node:crypto";

const N = 16384;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(password.normalize("NFKC"), salt, keylen, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEY_LENGTH, { N, r: R, p: P });
  return ["scrypt", N, R, P, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/** Whether `password` matches `stored`; a malformed hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const key = await scrypt(password, Buffer.from(salt, "base64url"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * A hash of a random password, checked when a login names no account, so an unknown login costs
 * the same scrypt work as a wrong password and the two cannot be told apart by timing.
 */
export const DUMMY_HASH = await hashPassword(randomBytes(16).toString("hex"));

const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";

/** A strong random password: 20 characters from a 56-letter alphabet (about 116 bits). */
export function generatePassword(length = 20): string {
  const bytes = randomBytes(length * 2);
  let out = "";
  for (const byte of bytes) {
    if (byte < 224) out += ALPHABET[byte % 56];
    if (out.length === length) return out;
  }
  return out + generatePassword(length - out.length);
}
