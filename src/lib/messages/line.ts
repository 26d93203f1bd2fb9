/**
 * What both ends of the direct line share in the browser (issue 43), without React: the server's
 * answers as they arrive, a conversation's keys derived once per pair of public keys, messages
 * opened, and a message sealed and sent at the next sequence (sealed again when another took it).
 * The member's page (member-line.ts) and the operator's panel (operator-line.ts) build on it.
 */
import { ApiError, apiRequest } from "../api-client.ts";
import { conversationKey, openMessage, sealMessage, type MessagePlain, type Sender } from "./crypto.ts";
import type { ConversationState, MessageView } from "./wire.ts";

export type { ConversationState };
/** A message as the server keeps it: sealed (wire.ts). */
export type StoredMessage = MessageView;

/** A message opened (or said unopenable: `plain` null). */
export type OpenedMessage = Omit<StoredMessage, "iv" | "ciphertext"> & { plain: MessagePlain | null };

/** The conversation keys one end derives, once per pair of public keys (a key that changed makes another). */
export class ConversationKeys {
  private readonly keys = new Map<string, Promise<CryptoKey>>();
  private readonly side: Sender;
  private readonly ownPrivate: CryptoKey;
  constructor(side: Sender, ownPrivate: CryptoKey) {
    this.side = side;
    this.ownPrivate = ownPrivate;
  }

  of(conversation: string, memberKey: string, operatorKey: string): Promise<CryptoKey> {
    const id = `${conversation}:${memberKey}:${operatorKey}`;
    let key = this.keys.get(id);
    if (!key) {
      key = conversationKey(this.ownPrivate, this.side === "member" ? operatorKey : memberKey, { conversation, memberKey, operatorKey });
      this.keys.set(id, key);
    }
    return key;
  }

  /** Every message opened, in order; one that does not open is kept, said so. */
  async openAll(conversation: string, stored: readonly StoredMessage[]): Promise<OpenedMessage[]> {
    return Promise.all(
      stored.map(async ({ iv, ciphertext, ...message }) => {
        try {
          const key = await this.of(conversation, message.memberKey, message.operatorKey);
          return { ...message, plain: await openMessage(key, { conversation, sender: message.sender, sequence: message.sequence }, { iv, ciphertext }) };
        } catch {
          return { ...message, plain: null };
        }
      }),
    );
  }

  /**
   * Seals `plain` at the next sequence after `last` and posts it to `url` (with `extra`); when
   * another message took that place first (409 `sequence_taken`), seals it again for the next.
   */
  async send<T>(url: string, at: { conversation: string; memberKey: string; operatorKey: string; last: number }, plain: MessagePlain, extra: Record<string, unknown> = {}): Promise<T> {
    const key = await this.of(at.conversation, at.memberKey, at.operatorKey);
    let sequence = at.last + 1;
    for (let tries = 0; ; tries++) {
      const sealed = await sealMessage(key, { conversation: at.conversation, sender: this.side, sequence }, plain);
      try {
        return await apiRequest<T>("POST", url, { sequence, memberKey: at.memberKey, operatorKey: at.operatorKey, ...sealed, ...extra });
      } catch (error) {
        if (!(error instanceof ApiError) || error.code !== "sequence_taken" || tries >= 5) throw error;
        sequence = Number(error.details.last) + 1;
      }
    }
  }
}

/** When an answer is due, in words relative to `now`: "due in 3 h", "overdue by 2 h", "due in 25 min". */
export function dueWords(dueAt: string, now: Date): { text: string; overdue: boolean } {
  const ms = Date.parse(dueAt) - now.getTime();
  const span = Math.abs(ms);
  const amount = span >= 3600_000 ? `${Math.round(span / 3600_000)} h` : `${Math.max(1, Math.round(span / 60_000))} min`;
  return ms >= 0 ? { text: `due in ${amount}`, overdue: false } : { text: `overdue by ${amount}`, overdue: true };
}
