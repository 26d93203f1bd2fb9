import { describe, expect, it } from "vitest";
import {
  createNotebook,
  formatRecoveryKey,
  fromBase64,
  openNote,
  PAD_BYTES,
  padded,
  parseRecoveryKey,
  PBKDF2_ITERATIONS,
  renewRecoveryKey,
  replacePassphrase,
  sealNote,
  toBase64,
  unlockWithPassphrase,
  unlockWithRecoveryKey,
  WrongSecretError,
  type NoteAddress,
  type NotePlain,
} from "./crypto.ts";

const NOTEBOOK = "0b6f3c1e-8a52-4f0e-9d3c-2f1a7b6c5d4e";
const at = (subsectionId: number, version: number, notebook = NOTEBOOK): NoteAddress => ({ notebook, subsectionId, version });

const note: NotePlain = {
  text: "What it says during one ordinary hour: **you are late** again.",
  title: "The Voice That Narrates",
  chapterSlug: "the-inner-narrator",
  chapterTitle: "The Inner Narrator",
  sectionSlug: "the-voice-that-narrates",
  level: "Operator",
};

describe("the notebook's cryptography", () => {
  it("makes a notebook whose key opens with the passphrase and with the recovery key, both non-extractable", async () => {
    const { key, wrapped, recoveryKey } = await createNotebook("a long passphrase of mine");
    expect(wrapped.iterations).toBe(PBKDF2_ITERATIONS);
    expect(PBKDF2_ITERATIONS).toBeGreaterThanOrEqual(600_000);
    expect(fromBase64(wrapped.salt)).toHaveLength(16);
    expect(recoveryKey).toMatch(/^([0-9A-Z]{4}-){7}[0-9A-Z]{4}$/);
    expect(key.extractable).toBe(false);

    const sealed = await sealNote(key, at(42, 1), note);
    for (const opened of [await unlockWithPassphrase(wrapped, "a long passphrase of mine"), await unlockWithRecoveryKey(wrapped, recoveryKey.toLowerCase().replace(/-/g, " "))]) {
      expect(opened.extractable).toBe(false);
      expect(await openNote(opened, at(42, 1), sealed)).toEqual(note);
      await expect(globalThis.crypto.subtle.exportKey("raw", opened)).rejects.toThrow();
    }
  });

  it("refuses a wrong passphrase or recovery key", async () => {
    const { wrapped, recoveryKey } = await createNotebook("a long passphrase of mine");
    await expect(unlockWithPassphrase(wrapped, "a long passphrase of yours")).rejects.toBeInstanceOf(WrongSecretError);
    const other = (await createNotebook("another notebook entirely")).recoveryKey;
    await expect(unlockWithRecoveryKey(wrapped, other)).rejects.toBeInstanceOf(WrongSecretError);
    await expect(unlockWithRecoveryKey(wrapped, "not a key")).rejects.toBeInstanceOf(WrongSecretError);
    // A wrap for one purpose does not open as the other.
    await expect(unlockWithRecoveryKey({ ...wrapped, byRecovery: wrapped.byPassphrase }, recoveryKey)).rejects.toBeInstanceOf(WrongSecretError);
  });

  it("refuses a note that was tampered with, moved to another subsection, another notebook or passed off as another version", async () => {
    const { key } = await createNotebook("a long passphrase of mine");
    const sealed = await sealNote(key, at(7, 3), note);
    expect(await openNote(key, at(7, 3), sealed)).toEqual(note);
    const flipped = fromBase64(sealed.ciphertext);
    flipped[5]! ^= 1;
    await expect(openNote(key, at(7, 3), { ...sealed, ciphertext: toBase64(flipped) })).rejects.toThrow();
    await expect(openNote(key, at(8, 3), sealed)).rejects.toThrow();
    await expect(openNote(key, at(7, 2), sealed)).rejects.toThrow();
    await expect(openNote(key, at(7, 3, "7c1d2e3f-0000-4000-8000-000000000000"), sealed)).rejects.toThrow();
    const otherKey = (await createNotebook("another notebook entirely")).key;
    await expect(openNote(otherKey, at(7, 3), sealed)).rejects.toThrow();
    // A fresh IV each save: the same words never seal the same way twice.
    const again = await sealNote(key, at(7, 3), note);
    expect(again.iv).not.toBe(sealed.iv);
    expect(again.ciphertext).not.toBe(sealed.ciphertext);
  });

  it("still opens a note sealed before the notebook's id was bound (issue 32's additional data), at its own subsection and version only", async () => {
    const { key } = await createNotebook("a long passphrase of mine");
    const iv = globalThis.crypto.getRandomValues(new Uint8Array(12));
    const legacy = new Uint8Array(
      await globalThis.crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: new TextEncoder().encode("note:v1:7:3") }, key, new TextEncoder().encode(JSON.stringify(note))),
    );
    const sealed = { iv: toBase64(iv), ciphertext: toBase64(legacy) };
    expect(await openNote(key, at(7, 3), sealed)).toEqual(note);
    await expect(openNote(key, at(7, 4), sealed)).rejects.toThrow();
  });

  it("pads a note's words to a multiple of 256 bytes: the server learns its size only to that", async () => {
    const { key } = await createNotebook("a long passphrase of mine");
    const size = async (text: string) => fromBase64((await sealNote(key, at(1, 1), { ...note, text })).ciphertext).length;
    // AES-GCM adds its 16-byte tag to the padded words.
    const short = await size("a");
    expect(short % PAD_BYTES).toBe(16);
    expect(await size("a few more words, but still short")).toBe(short);
    const longer = await size("x".repeat(400));
    expect(longer).toBeGreaterThan(short);
    expect(longer % PAD_BYTES).toBe(16);
    expect(await size("y".repeat(401))).toBe(longer);
    // Padding is white space after the JSON: the note reads back as it was.
    const text = "ends with spaces   ";
    expect((await openNote(key, at(1, 1), await sealNote(key, at(1, 1), { ...note, text }))).text).toBe(text);
    for (const length of [0, 1, 255, 256, 257, 511]) {
      const bytes = padded(new Uint8Array(length).fill(65));
      expect(bytes.length % PAD_BYTES, String(length)).toBe(0);
      expect(bytes.length, String(length)).toBeGreaterThan(length);
    }
  });

  it("replaces a forgotten passphrase with the recovery key: the new one opens the same notes, the old one no longer does, the recovery key still does", async () => {
    const { key, wrapped, recoveryKey } = await createNotebook("the passphrase I forgot");
    const sealed = await sealNote(key, at(1, 1), note);
    await expect(replacePassphrase(wrapped, "WRONG-KEY", "a brand new passphrase")).rejects.toBeInstanceOf(WrongSecretError);
    const replaced = await replacePassphrase(wrapped, recoveryKey, "a brand new passphrase");
    expect(replaced.key.extractable).toBe(false);
    expect(replaced.wrapped.salt).not.toBe(wrapped.salt);
    expect(await openNote(await unlockWithPassphrase(replaced.wrapped, "a brand new passphrase"), at(1, 1), sealed)).toEqual(note);
    await expect(unlockWithPassphrase(replaced.wrapped, "the passphrase I forgot")).rejects.toBeInstanceOf(WrongSecretError);
    expect(await openNote(await unlockWithRecoveryKey(replaced.wrapped, recoveryKey), at(1, 1), sealed)).toEqual(note);
  });

  it("makes a new recovery key with the passphrase: the new one opens the notes, the old one no longer does, the passphrase still does", async () => {
    const { key, wrapped, recoveryKey } = await createNotebook("the passphrase I keep");
    const sealed = await sealNote(key, at(2, 1), note);
    await expect(renewRecoveryKey(wrapped, "not the passphrase")).rejects.toBeInstanceOf(WrongSecretError);
    const renewed = await renewRecoveryKey(wrapped, "the passphrase I keep");
    expect(renewed.recoveryKey).not.toBe(recoveryKey);
    expect(renewed.key.extractable).toBe(false);
    expect(await openNote(await unlockWithRecoveryKey(renewed.wrapped, renewed.recoveryKey), at(2, 1), sealed)).toEqual(note);
    await expect(unlockWithRecoveryKey(renewed.wrapped, recoveryKey)).rejects.toBeInstanceOf(WrongSecretError);
    expect(await openNote(await unlockWithPassphrase(renewed.wrapped, "the passphrase I keep"), at(2, 1), sealed)).toEqual(note);
  });

  it("writes recovery keys that read back, forgiving case, spaces and look-alike letters", () => {
    const bytes = globalThis.crypto.getRandomValues(new Uint8Array(20));
    const text = formatRecoveryKey(bytes);
    expect(parseRecoveryKey(text)).toEqual(bytes);
    expect(parseRecoveryKey(` ${text.toLowerCase().replace(/-/g, "  ")} `)).toEqual(bytes);
    expect(parseRecoveryKey(text.replace(/0/g, "O").replace(/1/g, "l"))).toEqual(bytes);
    expect(parseRecoveryKey(text.slice(0, -1))).toBeNull();
    expect(parseRecoveryKey(`${text.slice(0, -1)}U`)).toBeNull();
  });
});
