/**
 * The direct line in a member's browser (issue 43), without React: their conversation with the
 * operator, opened with their notebook (src/lib/notebook/client.ts: its key, kept on this device,
 * opens their messaging key), sealed to the operator's key they pinned the first time. The
 * Messages page draws its state and calls its actions.
 */
import { apiRequest } from "../api-client.ts";
import { deviceKey, notebookApi, type NotebookInfo } from "../notebook/client.ts";
import { fingerprint, newKeyPair, openMemberKey, openPin, sealMemberKey, sealPin, type MessagePlain, type PassageRef } from "./crypto.ts";
import { ConversationKeys, type ConversationState, type OpenedMessage, type StoredMessage } from "./line.ts";
import type { TakenMessage } from "../notebook/export.ts";

/** The member's side as the server answers it (GET /api/messages). */
interface MemberAnswer {
  conversation: ConversationState | null;
  windowHours: number;
  messages: StoredMessage[];
  operatorKey: string | null;
  keys: { notebook: string; publicKey: string | null; privateKey: string | null; pin: { iv: string; ciphertext: string } | null } | null;
}

export type MemberLineState =
  | { kind: "closed"; reason: "tier" | "not-set-up" }
  /** The notebook must be started, or opened on this device, first (its key opens the messages). */
  | { kind: "notebook"; info: NotebookInfo | null }
  /** The operator's key is not the one pinned: said, with both fingerprints, until the member accepts the new one. */
  | { kind: "key-changed"; pinned: string; current: string }
  | {
      kind: "open";
      conversation: ConversationState | null;
      windowHours: number;
      messages: OpenedMessage[];
      /** The operator's key's fingerprint, to compare. */
      operatorPrint: string;
    };

/** The member's opened line: its keys, for sending. */
interface Opened {
  notebook: NotebookInfo;
  notebookKey: CryptoKey;
  memberKey: string;
  operatorKey: string;
  keys: ConversationKeys;
  answer: MemberAnswer;
}

export class MemberLine {
  private opened: Opened | null = null;

  /** Reads the conversation and opens it as far as this device can. */
  async load(): Promise<MemberLineState> {
    const answer = await apiRequest<MemberAnswer>("GET", "/api/messages");
    if (answer.windowHours === 0) return { kind: "closed", reason: "tier" };
    if (!answer.operatorKey) return { kind: "closed", reason: "not-set-up" };
    const notebook = await notebookApi.get();
    const notebookKey = await deviceKey(notebook);
    if (!notebook || !notebookKey) return { kind: "notebook", info: notebook };
    return this.open(answer, notebook, notebookKey);
  }

  private async open(answer: MemberAnswer, notebook: NotebookInfo, notebookKey: CryptoKey, acceptKey = false): Promise<MemberLineState> {
    const operatorKey = answer.operatorKey!;
    let keys = answer.keys;
    if (!keys?.publicKey || !keys.privateKey || keys.notebook !== notebook.id) {
      // The first time: a key pair of the member's own, kept in their notebook, and the operator's key pinned.
      const pair = await newKeyPair();
      const sealed = await sealMemberKey(notebookKey, notebook.id, pair.privateKey);
      keys = (
        await apiRequest<{ keys: NonNullable<MemberAnswer["keys"]> }>("PUT", "/api/messages/keys", {
          notebook: notebook.id,
          publicKey: pair.publicKey,
          privateKey: sealed,
          pin: await sealPin(notebookKey, notebook.id, operatorKey),
        })
      ).keys;
    } else if (!keys.pin || acceptKey) {
      keys = (await apiRequest<{ keys: NonNullable<MemberAnswer["keys"]> }>("PUT", "/api/messages/keys", { notebook: notebook.id, pin: await sealPin(notebookKey, notebook.id, operatorKey) })).keys;
    }
    const privateKey = await openMemberKey(notebookKey, notebook.id, keys.privateKey!);
    const pinned = await openPin(notebookKey, notebook.id, keys.pin!).catch(() => null);
    if (pinned !== operatorKey) return { kind: "key-changed", pinned: pinned ? await fingerprint(pinned) : "(none)", current: await fingerprint(operatorKey) };
    const line = new ConversationKeys("member", privateKey);
    this.opened = { notebook, notebookKey, memberKey: keys.publicKey!, operatorKey, keys: line, answer };
    const conversation = answer.conversation;
    return {
      kind: "open",
      conversation,
      windowHours: answer.windowHours,
      messages: conversation ? await line.openAll(conversation.id, answer.messages) : [],
      operatorPrint: await fingerprint(operatorKey),
    };
  }

  /** The member accepts the operator's new key (having compared its fingerprint): pinned anew. */
  async acceptOperatorKey(): Promise<MemberLineState> {
    const answer = await apiRequest<MemberAnswer>("GET", "/api/messages");
    const notebook = await notebookApi.get();
    const notebookKey = await deviceKey(notebook);
    if (!notebook || !notebookKey) return { kind: "notebook", info: notebook };
    return this.open(answer, notebook, notebookKey, true);
  }

  /** Sends a message (about `passage`, if any; answering task `answerTo`, if any); answers the line as it then is. */
  async send(text: string, passage?: PassageRef, answerTo?: number): Promise<MemberLineState> {
    const opened = this.opened;
    if (!opened) throw new Error("Open your messages first.");
    const conversation = opened.answer.conversation?.id ?? (await apiRequest<{ id: string }>("POST", "/api/messages/conversation")).id;
    const last = opened.answer.messages.at(-1)?.sequence ?? 0;
    const plain: MessagePlain = passage ? { text, passage } : { text };
    await opened.keys.send("/api/messages", { conversation, memberKey: opened.memberKey, operatorKey: opened.operatorKey, last }, plain, answerTo ? { answerTo } : {});
    return this.load();
  }

  /** The operator's messages shown, through the last. */
  async markRead(messages: readonly OpenedMessage[]): Promise<void> {
    const last = messages.filter((m) => m.sender === "operator" && !m.readAt).at(-1);
    if (last) await apiRequest("PUT", "/api/messages/read", { through: last.sequence });
  }

  /** A task marked done, with an answer sent to the operator if one is written. */
  async taskDone(sequence: number, answer: string): Promise<MemberLineState> {
    if (answer.trim()) return this.send(answer.trim(), undefined, sequence);
    await apiRequest("PUT", `/api/messages/tasks/${sequence}/done`);
    return this.load();
  }
}

/**
 * The direct line as the member takes it away with their notebook (issue 43): every message of
 * `conversation`, opened with their messaging key (sealed under the notebook key `notebookKey`).
 * Nothing when they never used the line.
 */
export async function takenMessages(
  notebookKey: CryptoKey,
  notebook: string,
  conversation: { id: string; keys: { privateKey: string | null } | null; messages: StoredMessage[] } | null,
): Promise<TakenMessage[]> {
  if (!conversation?.keys?.privateKey || conversation.messages.length === 0) return [];
  const keys = new ConversationKeys("member", await openMemberKey(notebookKey, notebook, conversation.keys.privateKey));
  return (await keys.openAll(conversation.id, conversation.messages)).map((message) => ({
    sender: message.sender,
    createdAt: message.createdAt,
    text: message.plain?.text ?? null,
    task: message.kind === "task",
  }));
}

/** The signed-in member's direct line, for their notebook's download. */
export async function myTakenMessages(notebookKey: CryptoKey, notebook: string): Promise<TakenMessage[]> {
  const answer = await apiRequest<MemberAnswer>("GET", "/api/messages");
  return takenMessages(notebookKey, notebook, answer.conversation && { id: answer.conversation.id, keys: answer.keys, messages: answer.messages });
}
