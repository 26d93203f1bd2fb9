/**
 * The direct line's cryptography (issue 43), in the member's and the operator's browsers: WebCrypto
 * only, beside the notebook's (src/lib/notebook/crypto.ts), whose vault keeps the operator's key.
 *
 * - Each side has an ECDH P-256 key pair (every browser the site supports has it in WebCrypto;
 *   X25519 is not yet everywhere). The operator's private key is kept in a vault wrapped by the
 *   operator's passphrase and a recovery key (MESSAGING_VAULT); a member's is kept encrypted
 *   under their notebook key, so the notebook's passphrase opens their messages too.
 * - A conversation's key is derived by both ends alone: ECDH between one side's private key and
 *   the other's public key, then HKDF-SHA-256 bound to the conversation and to both public keys.
 * - Each message is AES-256-GCM under that key with a fresh IV, its words padded like a note's,
 *   and the conversation, the sender and the sequence as additional data: the server cannot move a
 *   message to another conversation, pass the operator's words off as the member's, or reorder them.
 * - A member's browser pins the operator's public key the first time it uses it (kept sealed in the
 *   notebook) and warns if it ever changes; both sides can compare its fingerprint.
 *
 * What it protects against: the server, its database, backups, logs and webhooks (they hold
 * ciphertext, or no words at all). What it cannot: a changed site's code reading what is typed
 * before it is encrypted; and the operator, who reads what is sent to them, by design.
 */
import { fromBase64, padded, toBase64, type SealedNote, type VaultKind } from "../notebook/crypto.ts";

/** The curve both sides' keys are on. */
export const CURVE: EcKeyImportParams = { name: "ECDH", namedCurve: "P-256" };

/** The operator's messaging private key, kept wrapped by the operator's passphrase and a recovery key (the notebook's vault). */
export const MESSAGING_VAULT: VaultKind = {
  format: "pkcs8",
  algorithm: CURVE,
  usages: ["deriveBits"],
  purpose: { passphrase: "messaging-key:v1:passphrase", recovery: "messaging-key:v1:recovery" },
  wrong: "That does not open the messaging key.",
};

/** Who wrote a message. */
export type Sender = "member" | "operator";

/** Where a message sits: bound as its additional data. */
export interface MessageAddress {
  conversation: string;
  sender: Sender;
  sequence: number;
}

/** A passage a message is about: named as the member saw it, with its address. */
export interface PassageRef {
  level: string;
  chapterSlug: string;
  chapterTitle: string;
  chapterNumber: number;
  sectionSlug: string;
  sectionTitle: string;
  sectionNumber: number;
}

/** A message as it is encrypted. */
export interface MessagePlain {
  text: string;
  /** The passage it is about. */
  passage?: PassageRef;
}

/** A sealed message: what the server stores (base64). */
export type SealedMessage = SealedNote;

const subtle = () => globalThis.crypto.subtle;
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const AES = { name: "AES-GCM", length: 256 } as const;

/** A new key pair: its public key as the server keeps it (raw, base64), and its private key, extractable (to be locked away). */
export async function newKeyPair(): Promise<{ publicKey: string; privateKey: CryptoKey }> {
  const pair = await subtle().generateKey(CURVE, true, ["deriveBits"]);
  return { publicKey: toBase64(new Uint8Array(await subtle().exportKey("raw", pair.publicKey))), privateKey: pair.privateKey };
}

/** A public key's fingerprint, to compare aloud: the first 16 bytes of its SHA-256, in eight groups of four hex digits. */
export async function fingerprint(publicKey: string): Promise<string> {
  const digest = new Uint8Array(await subtle().digest("SHA-256", fromBase64(publicKey)));
  const hex = [...digest.slice(0, 16)].map((byte) => byte.toString(16).padStart(2, "0").toUpperCase()).join("");
  return hex.match(/.{4}/g)!.join(" ");
}

const memberKeyData = (notebook: string) => encoder.encode(`member-messaging-key:v1:${notebook}`);

/** A member's private key (extractable), encrypted under their notebook key for the server to keep. */
export async function sealMemberKey(notebookKey: CryptoKey, notebook: string, privateKey: CryptoKey): Promise<string> {
  const iv = globalThis.crypto.getRandomValues(new Uint8Array(12));
  const bytes = new Uint8Array(await subtle().exportKey("pkcs8", privateKey));
  const sealed = new Uint8Array(await subtle().encrypt({ name: "AES-GCM", iv, additionalData: memberKeyData(notebook) }, notebookKey, bytes));
  const out = new Uint8Array(12 + sealed.length);
  out.set(iv);
  out.set(sealed, 12);
  return toBase64(out);
}

/** A member's private key, opened with their notebook key (non-extractable). */
export async function openMemberKey(notebookKey: CryptoKey, notebook: string, sealed: string): Promise<CryptoKey> {
  const bytes = fromBase64(sealed);
  const pkcs8 = await subtle().decrypt({ name: "AES-GCM", iv: bytes.slice(0, 12), additionalData: memberKeyData(notebook) }, notebookKey, bytes.slice(12));
  return subtle().importKey("pkcs8", pkcs8, CURVE, false, ["deriveBits"]);
}

/**
 * The conversation's key, as either end derives it: its own private key and the other's public
 * key (ECDH), through HKDF bound to the conversation and both public keys. Nobody else can.
 */
export async function conversationKey(ownPrivate: CryptoKey, theirPublic: string, binding: { conversation: string; memberKey: string; operatorKey: string }): Promise<CryptoKey> {
  const other = await subtle().importKey("raw", fromBase64(theirPublic), CURVE, false, []);
  const shared = await subtle().deriveBits({ name: "ECDH", public: other }, ownPrivate, 256);
  const material = await subtle().importKey("raw", shared, "HKDF", false, ["deriveKey"]);
  return subtle().deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: encoder.encode(binding.conversation), info: encoder.encode(`direct-line:v1:${binding.memberKey}:${binding.operatorKey}`) },
    material,
    AES,
    false,
    ["encrypt", "decrypt"],
  );
}

const messageData = ({ conversation, sender, sequence }: MessageAddress) => encoder.encode(`message:v1:${conversation}:${sender}:${sequence}`);

/** Encrypts a message for its place (padded like a note). */
export async function sealMessage(key: CryptoKey, address: MessageAddress, message: MessagePlain): Promise<SealedMessage> {
  const iv = globalThis.crypto.getRandomValues(new Uint8Array(12));
  const ciphertext = await subtle().encrypt({ name: "AES-GCM", iv, additionalData: messageData(address) }, key, padded(encoder.encode(JSON.stringify(message))));
  return { iv: toBase64(iv), ciphertext: toBase64(new Uint8Array(ciphertext)) };
}

/** Decrypts a message; throws when it was not sealed under this key for this conversation, sender and sequence. */
export async function openMessage(key: CryptoKey, address: MessageAddress, sealed: SealedMessage): Promise<MessagePlain> {
  const plain = await subtle().decrypt({ name: "AES-GCM", iv: fromBase64(sealed.iv), additionalData: messageData(address) }, key, fromBase64(sealed.ciphertext));
  return JSON.parse(decoder.decode(plain)) as MessagePlain;
}

const pinData = (notebook: string) => encoder.encode(`operator-pin:v1:${notebook}`);

/** The operator's public key a member pinned, sealed under their notebook key (the server cannot change it unnoticed). */
export async function sealPin(notebookKey: CryptoKey, notebook: string, operatorKey: string): Promise<SealedMessage> {
  const iv = globalThis.crypto.getRandomValues(new Uint8Array(12));
  const ciphertext = await subtle().encrypt({ name: "AES-GCM", iv, additionalData: pinData(notebook) }, notebookKey, encoder.encode(operatorKey));
  return { iv: toBase64(iv), ciphertext: toBase64(new Uint8Array(ciphertext)) };
}

/** The pinned operator key, opened with the notebook key. */
export async function openPin(notebookKey: CryptoKey, notebook: string, sealed: SealedMessage): Promise<string> {
  return decoder.decode(await subtle().decrypt({ name: "AES-GCM", iv: fromBase64(sealed.iv), additionalData: pinData(notebook) }, notebookKey, fromBase64(sealed.ciphertext)));
}
