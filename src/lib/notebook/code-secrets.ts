/**
 * The access code's login and password are known to the operator, who issued them: a notebook
 * passphrase equal to either would open the notebook to them (issue 42: 7). At sign-in the browser
 * keeps a slow one-way digest of each (PBKDF2-SHA-256, 100,000 iterations, a random salt), never
 * the words; a new passphrase is refused when it digests the same. Gone with the session
 * (device-keys.ts), and absent where the member signed in before this existed (then nothing is
 * refused: the estimator still is).
 */
import { NOTEBOOK_REFUSED_KEY } from "../storage-keys.ts";

const ITERATIONS = 100_000;

// (Base64 of its own: this module loads at sign-in, without the notebook's crypto.)
const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (char) => char.charCodeAt(0));

interface Digests {
  salt: string;
  login: string;
  password: string;
}

async function digest(text: string, salt: Uint8Array<ArrayBuffer>): Promise<string> {
  const subtle = globalThis.crypto.subtle;
  const material = await subtle.importKey("raw", new TextEncoder().encode(text.normalize("NFC")), "PBKDF2", false, ["deriveBits"]);
  return toBase64(new Uint8Array(await subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations: ITERATIONS }, material, 256)));
}

const loginForm = (text: string) => text.trim().toLowerCase();

/** Keeps the digests of the code just signed in with (best effort: without storage nothing is kept). */
export async function rememberCodeSecrets(login: string, password: string): Promise<void> {
  const salt = globalThis.crypto.getRandomValues(new Uint8Array(16));
  const digests: Digests = { salt: toBase64(salt), login: await digest(loginForm(login), salt), password: await digest(password, salt) };
  try {
    localStorage.setItem(NOTEBOOK_REFUSED_KEY, JSON.stringify(digests));
  } catch {
    // storage unavailable
  }
}

/** Whether `passphrase` is the signed-in code's login or password (as far as this browser can tell). */
export async function isCodeSecret(passphrase: string): Promise<boolean> {
  let digests: Digests | null = null;
  try {
    digests = JSON.parse(localStorage.getItem(NOTEBOOK_REFUSED_KEY) ?? "null") as Digests | null;
  } catch {
    return false;
  }
  if (!digests?.salt) return false;
  const salt = fromBase64(digests.salt);
  const candidates = [passphrase, passphrase.trim()];
  for (const candidate of new Set(candidates)) if ((await digest(candidate, salt)) === digests.password) return true;
  return (await digest(loginForm(passphrase), salt)) === digests.login;
}
