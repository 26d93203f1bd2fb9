/**
 * The notebook's cryptography (issues 32 and 42), in the member's browser: WebCrypto only, no library.
 *
 * - A random notebook key (AES-256-GCM) encrypts every note. The server never sees it unwrapped.
 * - It is kept wrapped twice: by a key derived from the member's passphrase (PBKDF2-SHA-256,
 *   600,000 iterations as OWASP advises, a random salt per notebook) and by a random recovery key
 *   shown once. Each wrap is AES-GCM with its purpose as additional data, so a wrong passphrase or
 *   recovery key is refused by the authentication tag, never half-accepted.
 * - Each note is AES-GCM under the notebook key with a fresh 96-bit IV per save, its words padded
 *   to a multiple of PAD_BYTES (the server learns a note's size only to that), and the notebook's
 *   id, the subsection and the version as additional data.
 * - Keys handed out are non-extractable CryptoKeys: a page script can use them, never read them.
 *
 * What the additional data guarantees: a note opens only as the one it was sealed as. The server
 * cannot move a note to another passage, to another notebook, or to another version number (it
 * cannot relabel version 2 as version 5). What it does not guarantee alone: that a note is the
 * newest. The server can still serve an older version under that older version's own number; the
 * browser refuses that by remembering the highest version it has seen of each note (versions.ts),
 * and the server moves a note's version only forward (an erased note keeps its version, so a note
 * written there again continues past it). A device that has never seen a note cannot tell an old
 * copy from the newest.
 *
 * What it protects against: the server, its database, backups and logs (they hold ciphertext
 * only), and the operator, who issues the access code's password but never learns the passphrase.
 * What it cannot: a site whose code was changed to read what is typed before it is encrypted.
 */

export { NOTE_MAX_CHARS } from "./limits.ts";
export const PBKDF2_ITERATIONS = 600_000;
/** A sealed note's words are padded to a multiple of this many bytes. */
export const PAD_BYTES = 256;

/** The notebook key wrapped by the passphrase and by the recovery key, as the server keeps it (base64). */
export interface WrappedKeys {
  salt: string;
  iterations: number;
  /** IV (12 bytes) then the wrapped key, under the passphrase's key. */
  byPassphrase: string;
  /** IV (12 bytes) then the wrapped key, under the recovery key. */
  byRecovery: string;
}

/** A note as it is encrypted: its words and where they were written, the passage's title as it was then. */
export interface NotePlain {
  text: string;
  title: string;
  chapterSlug: string;
  chapterTitle: string;
  sectionSlug: string;
  level: string;
}

/** A sealed note: what the server stores (base64). */
export interface SealedNote {
  iv: string;
  ciphertext: string;
}

/** A passphrase or recovery key that does not open the notebook. */
export class WrongSecretError extends Error {
  override name = "WrongSecretError";
}

const subtle = () => globalThis.crypto.subtle;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const AES = { name: "AES-GCM", length: 256 } as const;
const PURPOSE = { passphrase: "notebook-key:v1:passphrase", recovery: "notebook-key:v1:recovery" } as const;
const RECOVERY_BYTES = 20;
/** Crockford's base32: no I, L, O or U, so a key read aloud or copied by hand is not mistaken. */
const BASE32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

export function toBase64(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const random = (n: number) => globalThis.crypto.getRandomValues(new Uint8Array(n));

/** A recovery key as the member keeps it: 32 characters in groups of four. */
export function formatRecoveryKey(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out.match(/.{1,4}/g)!.join("-");
}

/** The bytes of a recovery key as typed (case, spaces and dashes ignored; O read as 0, I and L as 1); null when it cannot be one. */
export function parseRecoveryKey(text: string): Uint8Array<ArrayBuffer> | null {
  const clean = text.toUpperCase().replace(/[\s-]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
  if (clean.length !== Math.ceil((RECOVERY_BYTES * 8) / 5) || /[^0-9A-HJKMNP-TV-Z]/.test(clean)) return null;
  const bytes = new Uint8Array(RECOVERY_BYTES);
  let bits = 0;
  let value = 0;
  let index = 0;
  for (const char of clean) {
    value = (value << 5) | BASE32.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      if (index < RECOVERY_BYTES) bytes[index++] = (value >>> (bits - 8)) & 255;
      bits -= 8;
    }
  }
  return bytes;
}

/**
 * What a vault keeps, wrapped by a passphrase and by a recovery key: the notebook key (AES), or
 * the operator's messaging private key (ECDH P-256, issue 43). Each wrap is bound to its kind's
 * purpose, so a wrap of one kind never opens as another.
 */
export interface VaultKind {
  format: "raw" | "pkcs8";
  algorithm: AesKeyGenParams | EcKeyImportParams;
  usages: KeyUsage[];
  purpose: { passphrase: string; recovery: string };
  /** What a passphrase or recovery key that does not open it is told. */
  wrong: string;
}

export const NOTEBOOK_VAULT: VaultKind = { format: "raw", algorithm: AES, usages: ["encrypt", "decrypt"], purpose: PURPOSE, wrong: "That does not open this notebook." };

async function passphraseKey(passphrase: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<CryptoKey> {
  const material = await subtle().importKey("raw", encoder.encode(passphrase.normalize("NFC")), "PBKDF2", false, ["deriveKey"]);
  return subtle().deriveKey({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, material, AES, false, ["wrapKey", "unwrapKey"]);
}

async function recoveryWrappingKey(kind: VaultKind, recovery: Uint8Array<ArrayBuffer>, salt: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  const material = await subtle().importKey("raw", recovery, "HKDF", false, ["deriveKey"]);
  return subtle().deriveKey({ name: "HKDF", hash: "SHA-256", salt, info: encoder.encode(kind.purpose.recovery) }, material, AES, false, ["wrapKey", "unwrapKey"]);
}

async function wrap(kind: VaultKind, key: CryptoKey, by: CryptoKey, purpose: string): Promise<string> {
  const iv = random(12);
  const wrapped = new Uint8Array(await subtle().wrapKey(kind.format, key, by, { name: "AES-GCM", iv, additionalData: encoder.encode(purpose) }));
  const out = new Uint8Array(iv.length + wrapped.length);
  out.set(iv);
  out.set(wrapped, iv.length);
  return toBase64(out);
}

async function unwrap(kind: VaultKind, wrapped: string, by: CryptoKey, purpose: string, extractable: boolean): Promise<CryptoKey> {
  const bytes = fromBase64(wrapped);
  try {
    return await subtle().unwrapKey(
      kind.format,
      bytes.slice(12),
      by,
      { name: "AES-GCM", iv: bytes.slice(0, 12), additionalData: encoder.encode(purpose) },
      kind.algorithm,
      extractable,
      kind.usages,
    );
  } catch {
    throw new WrongSecretError(kind.wrong);
  }
}

/** A non-extractable copy of `key`, for use and keeping on the device. */
async function sealedCopy(kind: VaultKind, key: CryptoKey): Promise<CryptoKey> {
  const bytes = await subtle().exportKey(kind.format, key);
  return subtle().importKey(kind.format, bytes, kind.algorithm, false, kind.usages);
}

/** `key` (extractable) and what the server keeps of it, wrapped by `passphrase` and `recovery` under a new salt; answers a non-extractable copy. */
async function wrapAnew(kind: VaultKind, key: CryptoKey, passphrase: string, recovery: Uint8Array<ArrayBuffer>): Promise<{ key: CryptoKey; wrapped: WrappedKeys }> {
  const salt = random(16);
  const wrapped: WrappedKeys = {
    salt: toBase64(salt),
    iterations: PBKDF2_ITERATIONS,
    byPassphrase: await wrap(kind, key, await passphraseKey(passphrase, salt, PBKDF2_ITERATIONS), kind.purpose.passphrase),
    // The recovery key's wrap depends on the salt: made again too.
    byRecovery: await wrap(kind, key, await recoveryWrappingKey(kind, recovery, salt), kind.purpose.recovery),
  };
  return { key: await sealedCopy(kind, key), wrapped };
}

/** Locks `key` (extractable) away: a non-extractable copy, what the server keeps, and the recovery key to show once. */
export async function lockAway(kind: VaultKind, key: CryptoKey, passphrase: string): Promise<{ key: CryptoKey; wrapped: WrappedKeys; recoveryKey: string }> {
  const recovery = random(RECOVERY_BYTES);
  return { ...(await wrapAnew(kind, key, passphrase, recovery)), recoveryKey: formatRecoveryKey(recovery) };
}

/** A vault's key, opened with the passphrase (WrongSecretError when it is not the one). */
export async function openVault(kind: VaultKind, wrapped: WrappedKeys, passphrase: string, extractable = false): Promise<CryptoKey> {
  return unwrap(kind, wrapped.byPassphrase, await passphraseKey(passphrase, fromBase64(wrapped.salt), wrapped.iterations), kind.purpose.passphrase, extractable);
}

function recoveryBytes(recoveryKey: string): Uint8Array<ArrayBuffer> {
  const bytes = parseRecoveryKey(recoveryKey);
  if (!bytes) throw new WrongSecretError("A recovery key is 32 letters and digits, in groups of four.");
  return bytes;
}

/** A vault's key, opened with the recovery key. */
export async function openVaultWithRecovery(kind: VaultKind, wrapped: WrappedKeys, recoveryKey: string, extractable = false): Promise<CryptoKey> {
  return unwrap(kind, wrapped.byRecovery, await recoveryWrappingKey(kind, recoveryBytes(recoveryKey), fromBase64(wrapped.salt)), kind.purpose.recovery, extractable);
}

/** A forgotten passphrase replaced: the recovery key opens the key, which is wrapped anew by the new passphrase (the recovery key keeps working). */
export async function replaceVaultPassphrase(kind: VaultKind, wrapped: WrappedKeys, recoveryKey: string, newPassphrase: string): Promise<{ key: CryptoKey; wrapped: WrappedKeys }> {
  const key = await openVaultWithRecovery(kind, wrapped, recoveryKey, true);
  return wrapAnew(kind, key, newPassphrase, recoveryBytes(recoveryKey));
}

/** A new recovery key: the passphrase opens the key, wrapped anew by it and a new recovery key; the old recovery key no longer opens what the server then keeps. */
export async function renewVaultRecovery(kind: VaultKind, wrapped: WrappedKeys, passphrase: string): Promise<{ key: CryptoKey; wrapped: WrappedKeys; recoveryKey: string }> {
  return lockAway(kind, await openVault(kind, wrapped, passphrase, true), passphrase);
}

/** A new notebook: its key (non-extractable), the key wrapped for the server, and the recovery key to show once. */
export async function createNotebook(passphrase: string): Promise<{ key: CryptoKey; wrapped: WrappedKeys; recoveryKey: string }> {
  return lockAway(NOTEBOOK_VAULT, await subtle().generateKey(AES, true, ["encrypt", "decrypt"]), passphrase);
}

/** The notebook key, opened with the passphrase (WrongSecretError when it is not the one). */
export const unlockWithPassphrase = (wrapped: WrappedKeys, passphrase: string) => openVault(NOTEBOOK_VAULT, wrapped, passphrase);

/** The notebook key, opened with the recovery key. */
export const unlockWithRecoveryKey = (wrapped: WrappedKeys, recoveryKey: string) => openVaultWithRecovery(NOTEBOOK_VAULT, wrapped, recoveryKey);

/**
 * A forgotten passphrase replaced: the recovery key opens the notebook key, which is wrapped anew
 * by the new passphrase (a new salt too; the recovery key keeps working). Answers the key and
 * what the server keeps.
 */
export const replacePassphrase = (wrapped: WrappedKeys, recoveryKey: string, newPassphrase: string) => replaceVaultPassphrase(NOTEBOOK_VAULT, wrapped, recoveryKey, newPassphrase);

/**
 * A new recovery key, for one that was never shown kept (issue 42: 7): the passphrase opens the
 * notebook key, which is wrapped anew by it and by a new recovery key; the old recovery key no
 * longer opens what the server then keeps. Answers the key, what the server keeps and the new
 * recovery key to show once.
 */
export const renewRecoveryKey = (wrapped: WrappedKeys, passphrase: string) => renewVaultRecovery(NOTEBOOK_VAULT, wrapped, passphrase);

/** Where a sealed note belongs: its notebook, subsection and version (bound as additional data). */
export interface NoteAddress {
  notebook: string;
  subsectionId: number;
  version: number;
}

const noteData = ({ notebook, subsectionId, version }: NoteAddress) => encoder.encode(`note:v2:${notebook}:${subsectionId}:${version}`);
/** The additional data of notes sealed before issue 42, which named no notebook (each notebook's key is its own, so none opens another's). */
const legacyNoteData = ({ subsectionId, version }: NoteAddress) => encoder.encode(`note:v1:${subsectionId}:${version}`);

/** `bytes` followed by spaces up to the next multiple of PAD_BYTES (JSON ignores trailing white space). */
export function padded(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(Math.ceil((bytes.length + 1) / PAD_BYTES) * PAD_BYTES).fill(0x20);
  out.set(bytes);
  return out;
}

/** Encrypts a note for its address (the version the save will make), padded. */
export async function sealNote(key: CryptoKey, address: NoteAddress, note: NotePlain): Promise<SealedNote> {
  const iv = random(12);
  const ciphertext = await subtle().encrypt({ name: "AES-GCM", iv, additionalData: noteData(address) }, key, padded(encoder.encode(JSON.stringify(note))));
  return { iv: toBase64(iv), ciphertext: toBase64(new Uint8Array(ciphertext)) };
}

/** Decrypts a note; throws when it was not sealed by this notebook's key for this notebook, subsection and version. */
export async function openNote(key: CryptoKey, address: NoteAddress, sealed: SealedNote): Promise<NotePlain> {
  const decrypt = (additionalData: Uint8Array<ArrayBuffer>) => subtle().decrypt({ name: "AES-GCM", iv: fromBase64(sealed.iv), additionalData }, key, fromBase64(sealed.ciphertext));
  const plain = await decrypt(noteData(address)).catch(() => decrypt(legacyNoteData(address)));
  return JSON.parse(decoder.decode(plain)) as NotePlain;
}
