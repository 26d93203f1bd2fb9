/**
 * The direct line in the operator's panel (issue 43), without React: the messaging key (made once,
 * kept wrapped by the operator's passphrase and a recovery key in the notebook's vault; opened once
 * per device and kept there as a non-extractable key), the inbox and a conversation opened in the
 * browser, replies and tasks sealed there. The panel's Messages tab draws it.
 */
import { apiRequest } from "../api-client.ts";
import { lockAway, openVault, renewVaultRecovery, replaceVaultPassphrase } from "../notebook/crypto.ts";
import { run } from "../notebook/device-keys.ts";
import { OPERATOR_KEYS_DATABASE } from "../storage-keys.ts";
import { fingerprint, MESSAGING_VAULT, newKeyPair, type MessagePlain } from "./crypto.ts";
import { ConversationKeys, type ConversationState, type OpenedMessage, type StoredMessage } from "./line.ts";
import type { InboxEntry as StoredInboxEntry, OperatorKeyView as OperatorKeyInfo } from "./wire.ts";

/** A conversation in the inbox, its last message opened. */
export interface InboxEntry extends Omit<StoredInboxEntry, "last"> {
  last: OpenedMessage | null;
}

export interface OpenConversation {
  conversation: ConversationState;
  login: string;
  memberKey: string | null;
  messages: OpenedMessage[];
}

const api = {
  key: async () => (await apiRequest<{ key: OperatorKeyInfo | null }>("GET", "/api/admin/messaging-key")).key,
};

/** The operator's private key kept on this device for `publicKey`, or null. */
async function keptKey(publicKey: string): Promise<CryptoKey | null> {
  try {
    return ((await run("readonly", (store) => store.get(publicKey), OPERATOR_KEYS_DATABASE)) as CryptoKey | undefined) ?? null;
  } catch {
    return null;
  }
}

async function keepKey(publicKey: string, key: CryptoKey): Promise<void> {
  await run(
    "readwrite",
    (store) => {
      store.clear();
      return store.put(key, publicKey);
    },
    OPERATOR_KEYS_DATABASE,
  );
}

export type OperatorKeyState = { kind: "none" } | { kind: "locked"; info: OperatorKeyInfo } | { kind: "open"; info: OperatorKeyInfo; print: string };

export class OperatorLine {
  private info: OperatorKeyInfo | null = null;
  private keys: ConversationKeys | null = null;

  /** The messaging key: not made yet, made but not open on this device, or open. */
  async status(): Promise<OperatorKeyState> {
    this.info = await api.key();
    if (!this.info) return { kind: "none" };
    const key = await keptKey(this.info.publicKey);
    if (!key) return { kind: "locked", info: this.info };
    this.keys = new ConversationKeys("operator", key);
    return { kind: "open", info: this.info, print: await fingerprint(this.info.publicKey) };
  }

  /** Makes the messaging key (once): its private key locked by `passphrase` and a recovery key, which it answers to show once. */
  async create(passphrase: string): Promise<{ recoveryKey: string }> {
    const pair = await newKeyPair();
    const { key, wrapped, recoveryKey } = await lockAway(MESSAGING_VAULT, pair.privateKey, passphrase);
    const made = (await apiRequest<{ key: OperatorKeyInfo }>("POST", "/api/admin/messaging-key", { publicKey: pair.publicKey, ...wrapped })).key;
    await keepKey(made.publicKey, key);
    this.info = made;
    return { recoveryKey };
  }

  /** Opens the key on this device with its passphrase (WrongSecretError when it is not the one). */
  async unlock(passphrase: string): Promise<void> {
    const info = this.info ?? (await api.key());
    if (!info) throw new Error("There is no messaging key yet.");
    await keepKey(info.publicKey, await openVault(MESSAGING_VAULT, info, passphrase));
  }

  /** A forgotten passphrase replaced with the recovery key. */
  async recover(recoveryKey: string, passphrase: string): Promise<void> {
    const info = this.info ?? (await api.key());
    if (!info) throw new Error("There is no messaging key yet.");
    const { key, wrapped } = await replaceVaultPassphrase(MESSAGING_VAULT, info, recoveryKey, passphrase);
    this.info = (await apiRequest<{ key: OperatorKeyInfo }>("PUT", "/api/admin/messaging-key", { version: info.version, wrapped, recoveryKept: true })).key;
    await keepKey(info.publicKey, key);
  }

  /** A new recovery key (the first never shown kept); answers it to show once. */
  async renewRecovery(passphrase: string): Promise<{ recoveryKey: string }> {
    const info = this.info!;
    const { key, wrapped, recoveryKey } = await renewVaultRecovery(MESSAGING_VAULT, info, passphrase);
    this.info = (await apiRequest<{ key: OperatorKeyInfo }>("PUT", "/api/admin/messaging-key", { version: info.version, wrapped, recoveryKept: false })).key;
    await keepKey(info.publicKey, key);
    return { recoveryKey };
  }

  /** The recovery key just shown was kept. */
  async recoveryKept(): Promise<void> {
    const info = this.info!;
    this.info = (await apiRequest<{ key: OperatorKeyInfo }>("PUT", "/api/admin/messaging-key", { version: info.version, recoveryKept: true })).key;
  }

  private opener(): ConversationKeys {
    if (!this.keys) throw new Error("Open the messaging key on this device first.");
    return this.keys;
  }

  /** Every conversation, the most pressing first, each last message opened here; and how many wait. */
  async inbox(): Promise<{ conversations: InboxEntry[]; waiting: number }> {
    const { conversations, waiting } = await apiRequest<{ conversations: StoredInboxEntry[]; waiting: number }>("GET", "/api/admin/conversations");
    const keys = this.opener();
    const opened = await Promise.all(conversations.map(async (entry) => ({ ...entry, last: entry.last ? ((await keys.openAll(entry.id, [entry.last]))[0] ?? null) : null })));
    return { conversations: opened, waiting };
  }

  /** One conversation, every message opened here; the member's messages marked read. */
  async conversation(id: string): Promise<OpenConversation> {
    const answer = await apiRequest<{ conversation: ConversationState; login: string; memberKey: string | null; messages: StoredMessage[] }>("GET", `/api/admin/conversations/${id}`);
    const messages = await this.opener().openAll(id, answer.messages);
    const unread = answer.messages.filter((m) => m.sender === "member" && !m.readAt).at(-1);
    if (unread) await apiRequest("PUT", `/api/admin/conversations/${id}/read`, { through: unread.sequence });
    return { ...answer, messages };
  }

  /** A reply (or a task, with an optional due day) sealed to the member's key and sent. */
  async reply(open: OpenConversation, plain: MessagePlain, task?: { due: string | null }): Promise<void> {
    if (!open.memberKey) throw new Error("This member has not opened their messages yet: there is no key of theirs to seal to.");
    const last = open.messages.at(-1)?.sequence ?? 0;
    await this.opener().send(`/api/admin/conversations/${open.conversation.id}/messages`, { conversation: open.conversation.id, memberKey: open.memberKey, operatorKey: this.info!.publicKey, last }, plain, task ? { kind: "task", taskDue: task.due } : {});
  }
}
