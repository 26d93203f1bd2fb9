import { describe, expect, it } from "vitest";
import {
  createNotebook,
  formatRecoveryKey,
  fromBase64,
  openNote,
  parseRecoveryKey,
  passphraseStrength,
  PBKDF2_ITERATIONS,
  replacePassphrase,
  sealNote,
  toBase64,
  unlockWithPassphrase,
  unlockWithRecoveryKey,
  WrongSecretError,
  type NotePlain,
} from "./crypto.ts";

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

    const sealed = await sealNote(key, 42, 1, note);
    for (const opened of [await unlockWithPassphrase(wrapped, "a long passphrase of mine"), await unlockWithRecoveryKey(wrapped, recoveryKey.toLowerCase().replace(/-/g, " "))]) {
      expect(opened.extractable).toBe(false);
      expect(await openNote(opened, 42, 1, sealed)).toEqual(note);
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

  it("refuses a note that was tampered with, moved to another subsection or passed off as another version", async () => {
    const { key } = await createNotebook("a long passphrase of mine");
    const sealed = await sealNote(key, 7, 3, note);
    expect(await openNote(key, 7, 3, sealed)).toEqual(note);
    const flipped = fromBase64(sealed.ciphertext);
    flipped[5]! ^= 1;
    await expect(openNote(key, 7, 3, { ...sealed, ciphertext: toBase64(flipped) })).rejects.toThrow();
    await expect(openNote(key, 8, 3, sealed)).rejects.toThrow();
    await expect(openNote(key, 7, 2, sealed)).rejects.toThrow();
    const otherKey = (await createNotebook("another notebook entirely")).key;
    await expect(openNote(otherKey, 7, 3, sealed)).rejects.toThrow();
    // A fresh IV each save: the same words never seal the same way twice.
    const again = await sealNote(key, 7, 3, note);
    expect(again.iv).not.toBe(sealed.iv);
    expect(again.ciphertext).not.toBe(sealed.ciphertext);
  });

  it("replaces a forgotten passphrase with the recovery key: the new one opens the same notes, the old one no longer does, the recovery key still does", async () => {
    const { key, wrapped, recoveryKey } = await createNotebook("the passphrase I forgot");
    const sealed = await sealNote(key, 1, 1, note);
    await expect(replacePassphrase(wrapped, "WRONG-KEY", "a brand new passphrase")).rejects.toBeInstanceOf(WrongSecretError);
    const replaced = await replacePassphrase(wrapped, recoveryKey, "a brand new passphrase");
    expect(replaced.key.extractable).toBe(false);
    expect(replaced.wrapped.salt).not.toBe(wrapped.salt);
    expect(await openNote(await unlockWithPassphrase(replaced.wrapped, "a brand new passphrase"), 1, 1, sealed)).toEqual(note);
    await expect(unlockWithPassphrase(replaced.wrapped, "the passphrase I forgot")).rejects.toBeInstanceOf(WrongSecretError);
    expect(await openNote(await unlockWithRecoveryKey(replaced.wrapped, recoveryKey), 1, 1, sealed)).toEqual(note);
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

  it("rates a passphrase as it is typed: under 10 characters is refused", () => {
    expect(passphraseStrength("short")).toMatchObject({ ok: false, label: "Too short" });
    expect(passphraseStrength("aaaaaaaaaaaa")).toMatchObject({ ok: true, score: 1 });
    expect(passphraseStrength("correct horse battery staple 42").score).toBe(4);
    expect(passphraseStrength("Tr0ub4dor&3x").score).toBeGreaterThanOrEqual(2);
  });
});
