/**
 * The direct line's answers as they cross the wire (issue 43): what the server sends
 * (src/server/messages/direct-line.ts) and both browsers read (line.ts, operator-line.ts,
 * member-line.ts). Types only: sealed messages and the clock, never words.
 */
import type { Level } from "../levels.ts";
import type { WrappedKeys } from "../notebook/crypto.ts";

/** The operator's messaging key as the server keeps it: public, and private wrapped twice. */
export interface OperatorKeyView extends WrappedKeys {
  publicKey: string;
  version: number;
  recoveryKept: boolean;
  createdAt: string;
}

/** A message as both browsers get it: sealed, with its place and marks. */
export interface MessageView {
  sequence: number;
  sender: "member" | "operator";
  kind: "message" | "task";
  memberKey: string;
  operatorKey: string;
  iv: string;
  ciphertext: string;
  taskDue: string | null;
  taskDoneAt: string | null;
  answerTo: number | null;
  readAt: string | null;
  createdAt: string;
}

/** What may be said of a conversation without its words. */
export interface ConversationState {
  id: string;
  tier: Level;
  /** When an answer is due for the oldest message waiting (null: none waiting). */
  dueAt: string | null;
  waitingSince: string | null;
  settled: "answered" | "no_reply" | null;
  lastMessageAt: string | null;
  windowHours: number;
}

/** A conversation in the operator's inbox: whose, its tier, the last message (sealed), when an answer is due. */
export interface InboxEntry extends Omit<ConversationState, "windowHours"> {
  login: string;
  active: boolean;
  memberKey: string | null;
  unread: number;
  openTasks: number;
  doneTasks: number;
  last: MessageView | null;
}
