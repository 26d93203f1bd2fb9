import { describe, expect, it } from "vitest";
import { createNotebook, fromBase64, lockAway, openVault, openVaultWithRecovery, PAD_BYTES, WrongSecretError } from "../notebook/crypto.ts";
import {
  conversationKey,
  fingerprint,
  MESSAGING_VAULT,
  newKeyPair,
  openMemberKey,
  openMessage,
  openPin,
  sealMemberKey,
  sealMessage,
  sealPin,
  type MessageAddress,
} from "./crypto.ts";

const conversation = "5f0c9a7e-2b3d-4c1e-9f8a-6d5e4c3b2a19";
const at = (sender: "member" | "operator", sequence: number): MessageAddress => ({ conversation, sender, sequence });

/** Both ends, as their browsers hold them: the operator's key from its vault, the member's from their notebook. */
async function ends() {
  const operator = await newKeyPair();
  const vault = await lockAway(MESSAGING_VAULT, operator.privateKey, "the operator's own passphrase");
  const member = await newKeyPair();
  const { key: notebookKey } = await createNotebook("a member's notebook passphrase");
  const sealedMember = await sealMemberKey(notebookKey, "notebook-1", member.privateKey);
  const binding = { conversation, memberKey: member.publicKey, operatorKey: operator.publicKey };
  return { operator, vault, member, notebookKey, sealedMember, binding };
}

describe("the direct line's cryptography", () => {
  it("gives both ends the same conversation key, each from its own private key and the other's public key", async () => {
    const { operator, vault, member, notebookKey, sealedMember, binding } = await ends();
    const operatorPrivate = await openVault(MESSAGING_VAULT, vault.wrapped, "the operator's own passphrase");
    expect(operatorPrivate.extractable).toBe(false);
    const memberPrivate = await openMemberKey(notebookKey, "notebook-1", sealedMember);
    expect(memberPrivate.extractable).toBe(false);
    const onMemberSide = await conversationKey(memberPrivate, operator.publicKey, binding);
    const onOperatorSide = await conversationKey(operatorPrivate, member.publicKey, binding);
    const sealed = await sealMessage(onMemberSide, at("member", 1), { text: "What do I do when the voice starts at breakfast?" });
    expect(await openMessage(onOperatorSide, at("member", 1), sealed)).toEqual({ text: "What do I do when the voice starts at breakfast?" });
    const reply = await sealMessage(onOperatorSide, at("operator", 1), { text: "Write down its first sentence, word for word." });
    expect((await openMessage(onMemberSide, at("operator", 1), reply)).text).toBe("Write down its first sentence, word for word.");
  });

  it("refuses a message moved to another conversation, sender or sequence, and any third party's key", async () => {
    const { operator, member, notebookKey, sealedMember, binding } = await ends();
    const key = await conversationKey(await openMemberKey(notebookKey, "notebook-1", sealedMember), operator.publicKey, binding);
    const sealed = await sealMessage(key, at("member", 3), { text: "words" });
    await expect(openMessage(key, at("operator", 3), sealed)).rejects.toThrow();
    await expect(openMessage(key, at("member", 2), sealed)).rejects.toThrow();
    await expect(openMessage(key, { ...at("member", 3), conversation: "another" }, sealed)).rejects.toThrow();
    // Another conversation's binding (same keys) derives another key.
    const elsewhere = await conversationKey(await openMemberKey(notebookKey, "notebook-1", sealedMember), operator.publicKey, { ...binding, conversation: "another" });
    await expect(openMessage(elsewhere, at("member", 3), sealed)).rejects.toThrow();
    // A stranger with the operator's public key and their own pair cannot derive it.
    const stranger = await newKeyPair();
    const theirs = await conversationKey(stranger.privateKey, operator.publicKey, binding);
    await expect(openMessage(theirs, at("member", 3), sealed)).rejects.toThrow();
    expect(member.publicKey).not.toBe(stranger.publicKey);
  });

  it("keeps the operator's key in a vault: the passphrase and the recovery key open it, nothing else; a member's key only with their notebook key", async () => {
    const { vault, notebookKey, sealedMember } = await ends();
    expect(await openVaultWithRecovery(MESSAGING_VAULT, vault.wrapped, vault.recoveryKey)).toBeInstanceOf(CryptoKey);
    await expect(openVault(MESSAGING_VAULT, vault.wrapped, "a guess")).rejects.toBeInstanceOf(WrongSecretError);
    const other = await createNotebook("someone else's notebook");
    await expect(openMemberKey(other.key, "notebook-1", sealedMember)).rejects.toThrow();
    await expect(openMemberKey(notebookKey, "notebook-2", sealedMember)).rejects.toThrow();
  });

  it("pads a message's words, and pins the operator's key under the notebook key", async () => {
    const { operator, notebookKey, sealedMember, binding } = await ends();
    const key = await conversationKey(await openMemberKey(notebookKey, "notebook-1", sealedMember), operator.publicKey, binding);
    const size = async (text: string) => fromBase64((await sealMessage(key, at("member", 1), { text })).ciphertext).length;
    expect(await size("hi")).toBe(await size("a rather longer question about a passage"));
    expect((await size("x")) % PAD_BYTES).toBe(16);
    const pin = await sealPin(notebookKey, "notebook-1", operator.publicKey);
    expect(await openPin(notebookKey, "notebook-1", pin)).toBe(operator.publicKey);
    await expect(openPin(notebookKey, "notebook-2", pin)).rejects.toThrow();
  });

  it("prints a fingerprint to compare aloud: eight groups of four, the same for the same key", async () => {
    const { operator } = await ends();
    const print = await fingerprint(operator.publicKey);
    expect(print).toMatch(/^([0-9A-F]{4} ){7}[0-9A-F]{4}$/);
    expect(await fingerprint(operator.publicKey)).toBe(print);
    expect(await fingerprint((await newKeyPair()).publicKey)).not.toBe(print);
  });
});
