/**
 * The direct line (issue 43): one conversation per access code with the operator, kept as bytes
 * the server cannot read (src/lib/messages/crypto.ts seals them in the browsers). What the server
 * decides without the words: whose conversation it is (the session's code, never one named in a
 * request; the operator's side only for an admin), who may write (a code that is active, of a tier
 * that includes messaging), the order (each message takes the next sequence, bound in its
 * additional data: one of two sent at once is refused and sealed again), the keys it was sealed
 * to (the operator's current key and the member's own: a message to a replaced key is refused),
 * how many (a member's: MESSAGE_LIMIT an hour), and when an answer is due: a member's message starts the
 * tier's window unless one is already running, an operator's reply or "no reply needed" stops it.
 */
import { and, eq, sql } from "../db/orm.ts";
import type { Database } from "../db/types.ts";
import { accessCodes, conversations, leadWebhooks, messages, messagingKeys, messagingSettings, notebooks, webhookDeliveries } from "../db/schema.ts";
import { conflict, HttpError, notFound } from "../http/errors.ts";
import { take, type Limit } from "../access/rate-limit.ts";
import { RETRY_WINDOW_MS } from "../leads/backoff.ts";
import type { Level } from "../../lib/levels.ts";
import type { ConversationState, InboxEntry, MessageView, OperatorKeyView } from "../../lib/messages/wire.ts";
import { NOTEBOOK_KEPT_DAYS } from "../notebook/notebook.ts";

/** A member's messages per hour (the operator's are not counted): someone writing to their coach stays far below. */
export const MESSAGE_LIMIT: Limit = { bucket: "messages-code", max: 30, windowMs: 60 * 60 * 1000 };
/** The tiers with a direct line, and the window each answers within by default (hours). */
export const DEFAULT_WINDOWS: Record<MessagingTier, number> = { Architect: 24, Mastermind: 12 };
export type MessagingTier = "Architect" | "Mastermind";
export const isMessagingTier = (level: string | null): level is MessagingTier => level === "Architect" || level === "Mastermind";

export interface ReplyWindows {
  architectHours: number;
  mastermindHours: number;
}

export interface SendMessage {
  sequence: number;
  memberKey: string;
  operatorKey: string;
  iv: string;
  ciphertext: string;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
const HOUR = 60 * 60 * 1000;

type MessageRow = {
  sequence: number;
  sender: string;
  kind: string;
  member_key: string;
  operator_key: string;
  iv: string;
  ciphertext: string;
  task_due: Date | string | null;
  task_done_at: Date | string | null;
  answer_to: number | null;
  read_at: Date | string | null;
  created_at: Date | string;
};
const messageColumns = sql`m.sequence, m.sender, m.kind, m.member_key, m.operator_key, m.iv, m.ciphertext, m.task_due, m.task_done_at, m.answer_to, m.read_at, m.created_at`;
const messageView = (row: MessageRow): MessageView => ({
  sequence: Number(row.sequence),
  sender: row.sender as MessageView["sender"],
  kind: row.kind as MessageView["kind"],
  memberKey: row.member_key,
  operatorKey: row.operator_key,
  iv: row.iv,
  ciphertext: row.ciphertext,
  taskDue: iso(row.task_due),
  taskDoneAt: iso(row.task_done_at),
  answerTo: row.answer_to === null ? null : Number(row.answer_to),
  readAt: iso(row.read_at),
  createdAt: iso(row.created_at)!,
});
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

// -- Settings and the operator's key ------------------------------------------------------------

/** The windows answers are due within, per tier (the defaults until the operator sets them). */
export async function replyWindows(db: Database): Promise<ReplyWindows> {
  const [row] = await db.select().from(messagingSettings);
  return { architectHours: row?.architectHours ?? DEFAULT_WINDOWS.Architect, mastermindHours: row?.mastermindHours ?? DEFAULT_WINDOWS.Mastermind };
}

export async function saveReplyWindows(db: Database, windows: ReplyWindows): Promise<ReplyWindows> {
  await db
    .insert(messagingSettings)
    .values({ id: 1, ...windows })
    .onConflictDoUpdate({ target: messagingSettings.id, set: { ...windows, updatedAt: new Date() } });
  return replyWindows(db);
}

const windowOf = (windows: ReplyWindows, tier: MessagingTier) => (tier === "Mastermind" ? windows.mastermindHours : windows.architectHours);

export async function operatorKey(db: Database): Promise<OperatorKeyView | null> {
  const [row] = await db.select().from(messagingKeys);
  if (!row) return null;
  return {
    publicKey: row.publicKey,
    salt: row.salt,
    iterations: row.iterations,
    byPassphrase: row.byPassphrase,
    byRecovery: row.byRecovery,
    version: row.version,
    recoveryKept: row.recoveryKept,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Keeps the operator's new key pair (its private key wrapped in the panel); 409 when there is one (made on another device first). */
export async function createOperatorKey(db: Database, key: Omit<OperatorKeyView, "version" | "recoveryKept" | "createdAt">): Promise<OperatorKeyView> {
  const created = await db.insert(messagingKeys).values({ id: 1, ...key }).onConflictDoNothing().returning({ id: messagingKeys.id });
  if (created.length === 0) throw conflict("The messaging key was made already, on another device: open it with its passphrase.");
  return (await operatorKey(db))!;
}

/** The operator's private key wrapped anew over `version` (a passphrase replaced, or a new recovery key), or its recovery key kept. */
export async function changeOperatorKey(db: Database, version: number, change: { wrapped?: Pick<OperatorKeyView, "salt" | "iterations" | "byPassphrase" | "byRecovery">; recoveryKept: boolean }): Promise<OperatorKeyView> {
  const updated = await db
    .update(messagingKeys)
    .set({ ...change.wrapped, recoveryKept: change.recoveryKept, ...(change.wrapped ? { version: sql`${messagingKeys.version} + 1` } : {}), updatedAt: new Date() })
    .where(eq(messagingKeys.version, version))
    .returning({ id: messagingKeys.id });
  if (updated.length === 0) {
    if (!(await operatorKey(db))) throw notFound("There is no messaging key yet: make it first.");
    throw conflict("The messaging key was changed on another device meanwhile. Reload and try again.");
  }
  return (await operatorKey(db))!;
}

// -- The member's side --------------------------------------------------------------------------

/** The member's messaging key, kept with their notebook: its public key, the private key sealed under the notebook key, and their pin of the operator's key. */
export interface MemberKeys {
  notebook: string;
  publicKey: string | null;
  privateKey: string | null;
  pin: { iv: string; ciphertext: string } | null;
}

export async function memberKeys(db: Database, accessCodeId: number): Promise<MemberKeys | null> {
  const [row] = await db
    .select({ id: notebooks.id, publicKey: notebooks.messagingPublic, privateKey: notebooks.messagingPrivate, pinIv: notebooks.operatorPinIv, pin: notebooks.operatorPin })
    .from(notebooks)
    .where(eq(notebooks.accessCodeId, accessCodeId));
  if (!row) return null;
  return { notebook: row.id, publicKey: row.publicKey, privateKey: row.privateKey, pin: row.pinIv && row.pin ? { iv: row.pinIv, ciphertext: row.pin } : null };
}

/**
 * Keeps the member's messaging key (and their pin of the operator's key) in their notebook
 * `notebook`: 409 when that notebook is no longer theirs. A key, once kept, stays (messages were
 * sealed to it): only the pin may change, when the member accepts a new operator key.
 */
export async function keepMemberKeys(db: Database, accessCodeId: number, notebook: string, keys: { publicKey?: string; privateKey?: string; pin: { iv: string; ciphertext: string } }): Promise<MemberKeys> {
  const updated = await db
    .update(notebooks)
    .set({
      ...(keys.publicKey && keys.privateKey
        ? { messagingPublic: sql`coalesce(${notebooks.messagingPublic}, ${keys.publicKey})`, messagingPrivate: sql`coalesce(${notebooks.messagingPrivate}, ${keys.privateKey})` }
        : {}),
      operatorPinIv: keys.pin.iv,
      operatorPin: keys.pin.ciphertext,
    })
    .where(and(eq(notebooks.accessCodeId, accessCodeId), sql`${notebooks.id}::text = ${notebook}`))
    .returning({ id: notebooks.id });
  if (updated.length === 0) throw new HttpError(409, "notebook_changed", "Your notebook was erased on another device: open it again to use your messages.");
  return (await memberKeys(db, accessCodeId))!;
}

/** A member's conversation, as their page reads it: its state, its messages, the keys to open them. */
export async function memberConversation(db: Database, member: { accessCodeId: number; level: Level }) {
  const [keys, operator, windows] = await Promise.all([memberKeys(db, member.accessCodeId), operatorKey(db), replyWindows(db)]);
  const conversation = await conversationOf(db, { accessCodeId: member.accessCodeId });
  return {
    conversation: conversation && { ...conversation.state, windowHours: isMessagingTier(member.level) ? windowOf(windows, member.level) : 0 },
    windowHours: isMessagingTier(member.level) ? windowOf(windows, member.level) : 0,
    messages: conversation ? await messagesOf(db, conversation.state.id) : [],
    operatorKey: operator?.publicKey ?? null,
    keys,
  };
}

async function conversationOf(db: Database, which: { id?: string; accessCodeId?: number }): Promise<{ state: Omit<ConversationState, "windowHours">; accessCodeId: number } | null> {
  const rows = rowsOf<{
    id: string;
    access_code_id: number;
    level: string | null;
    due_at: Date | string | null;
    waiting_since: Date | string | null;
    settled: string | null;
    last_message_at: Date | string | null;
  }>(
    await db.execute(sql`
      SELECT v.id, v.access_code_id, c.level, v.due_at, v.waiting_since, v.settled, v.last_message_at
      FROM ${conversations} v JOIN ${accessCodes} c ON c.id = v.access_code_id
      WHERE ${which.id !== undefined ? sql`v.id::text = ${which.id}` : sql`v.access_code_id = ${which.accessCodeId!}`}`),
  );
  const row = rows[0];
  if (!row) return null;
  return {
    accessCodeId: Number(row.access_code_id),
    state: {
      id: row.id,
      tier: (row.level ?? "Operator") as Level,
      dueAt: iso(row.due_at),
      waitingSince: iso(row.waiting_since),
      settled: row.settled as ConversationState["settled"],
      lastMessageAt: iso(row.last_message_at),
    },
  };
}

async function messagesOf(db: Database, conversation: string): Promise<MessageView[]> {
  return rowsOf<MessageRow>(await db.execute(sql`SELECT ${messageColumns} FROM ${messages} m WHERE m.conversation_id = ${conversation}::uuid ORDER BY m.sequence`)).map(messageView);
}

/** How many of the operator's messages the member has not read yet (the session answer carries it). */
export async function unreadByMember(db: Database, accessCodeId: number): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`
      SELECT count(*)::integer AS n FROM ${messages} m JOIN ${conversations} v ON v.id = m.conversation_id
      WHERE v.access_code_id = ${accessCodeId} AND m.sender = 'operator' AND m.read_at IS NULL`),
  );
  return Number(row?.n ?? 0);
}

/** Marks the other side's messages read, through `through`, as `reader` shows them. */
export async function markRead(db: Database, conversation: string, reader: "member" | "operator", through: number, now = new Date()): Promise<number> {
  const result = await db.execute(sql`
    UPDATE ${messages} SET read_at = ${now}
    WHERE conversation_id = ${conversation}::uuid AND sender <> ${reader} AND sequence <= ${through} AND read_at IS NULL
    RETURNING sequence`);
  return rowsOf(result).length;
}

/**
 * Saves a sealed message, in one transaction: the conversation (made if it is the first) locked,
 * then the code's limit counted, the code checked (active, of a tier with a direct line), the keys
 * checked (the operator's current key, the member's own), the sequence taken (the next one: 409
 * `sequence_taken` with the last otherwise), the message written and the wait started or stopped.
 * A member's message is also queued as a `message.received` event for every active webhook
 * (the conversation, its tier and when an answer is due; never its words).
 */
export async function sendMessage(
  db: Database,
  to: { accessCodeId: number } | { conversation: string },
  sender: "member" | "operator",
  message: SendMessage & { kind?: "message" | "task"; taskDue?: Date | null; answerTo?: number | null },
  now = new Date(),
): Promise<{ message: MessageView; conversation: ConversationState }> {
  const windows = await replyWindows(db);
  return db.transaction(async (tx) => {
    let accessCodeId: number;
    if ("accessCodeId" in to) {
      accessCodeId = to.accessCodeId;
      await tx.execute(sql`INSERT INTO ${conversations} (access_code_id) VALUES (${accessCodeId}) ON CONFLICT (access_code_id) DO NOTHING`);
    } else {
      const [found] = rowsOf<{ access_code_id: number }>(await tx.execute(sql`SELECT access_code_id FROM ${conversations} WHERE id::text = ${to.conversation}`));
      if (!found) throw notFound("There is no such conversation.");
      accessCodeId = Number(found.access_code_id);
    }
    // The conversation locked first, alone: the statement that reads it next then sees every message
    // committed before the lock was had (a lock taken within that statement would read from before the wait).
    await tx.execute(sql`SELECT 1 FROM ${conversations} WHERE access_code_id = ${accessCodeId} FOR UPDATE`);
    const [row] = rowsOf<{ id: string; due_at: Date | string | null; level: string | null; is_active: string; expires_at: Date | string | null; member_key: string | null; operator_key: string | null; last: number }>(
      await tx.execute(sql`
        SELECT v.id, v.due_at, c.level, c.is_active, c.expires_at, b.messaging_public AS member_key, k.public_key AS operator_key,
          coalesce((SELECT max(sequence) FROM ${messages} m WHERE m.conversation_id = v.id), 0)::integer AS last
        FROM ${conversations} v JOIN ${accessCodes} c ON c.id = v.access_code_id
        LEFT JOIN ${notebooks} b ON b.access_code_id = v.access_code_id
        LEFT JOIN ${messagingKeys} k ON k.id = 1
        WHERE v.access_code_id = ${accessCodeId}`),
    );
    const conversation = row!;
    if (sender === "member") await take(tx, MESSAGE_LIMIT, String(accessCodeId), now);
    if (!isMessagingTier(conversation.level)) {
      throw new HttpError(403, "no_direct_line", "The direct line comes with the Architect and Mastermind tiers: this access code's level does not include it.");
    }
    if (conversation.is_active !== "true" || (conversation.expires_at !== null && new Date(conversation.expires_at) <= now)) {
      throw new HttpError(409, "code_ended", "This access code has ended: no message can be sent on it. What was written stays for 30 days, to download.");
    }
    if (!conversation.operator_key) throw new HttpError(409, "no_operator_key", "The direct line is not open yet: the operator has not made the messaging key.");
    if (message.operatorKey !== conversation.operator_key) {
      throw new HttpError(409, "operator_key_changed", "The operator's messaging key is not the one this message was sealed to. Reload to see the current key.", undefined, { operatorKey: conversation.operator_key });
    }
    if (!conversation.member_key) throw new HttpError(409, "no_member_key", "This member has not opened their messages yet: there is no key of theirs to seal to.");
    if (message.memberKey !== conversation.member_key) {
      throw new HttpError(409, "member_key_changed", "The member's messaging key is not the one this message was sealed to. Reload and try again.");
    }
    if (message.sequence !== conversation.last + 1) {
      throw new HttpError(409, "sequence_taken", "Another message took this place first: it is sealed again for the next.", undefined, { last: conversation.last });
    }
    const [written] = rowsOf<MessageRow>(
      await tx.execute(sql`
        INSERT INTO ${messages} AS m (conversation_id, sequence, sender, kind, member_key, operator_key, iv, ciphertext, task_due, answer_to, created_at)
        VALUES (${conversation.id}::uuid, ${message.sequence}, ${sender}, ${message.kind ?? "message"}, ${message.memberKey}, ${message.operatorKey}, ${message.iv}, ${message.ciphertext},
          ${message.taskDue ?? null}, ${message.answerTo ?? null}, ${now})
        RETURNING ${messageColumns}`),
    );
    const tier = conversation.level as MessagingTier;
    const due = sender === "member" ? (conversation.due_at ? new Date(conversation.due_at) : new Date(now.getTime() + windowOf(windows, tier) * HOUR)) : null;
    await tx.execute(sql`
      UPDATE ${conversations} SET last_message_at = ${now},
        ${sender === "member" ? sql`due_at = ${due}, waiting_since = coalesce(waiting_since, ${now}), settled = NULL` : sql`due_at = NULL, waiting_since = NULL, settled = 'answered'`}
      WHERE id = ${conversation.id}::uuid`);
    if (message.answerTo) {
      await tx.execute(sql`
        UPDATE ${messages} SET task_done_at = coalesce(task_done_at, ${now})
        WHERE conversation_id = ${conversation.id}::uuid AND sequence = ${message.answerTo} AND kind = 'task'`);
    }
    if (sender === "member") {
      await queueEvent(tx, { event: "message.received", conversation: conversation.id, tier, dueAt: due!.toISOString(), sentAt: now.toISOString() }, now);
    }
    const state = (await conversationOf(tx, { id: conversation.id }))!.state;
    return { message: messageView(written!), conversation: { ...state, windowHours: windowOf(windows, tier) } };
  });
}

/** Marks a task done (the member, with or without an answer message). */
export async function markTaskDone(db: Database, accessCodeId: number, sequence: number, now = new Date()): Promise<void> {
  const result = await db.execute(sql`
    UPDATE ${messages} m SET task_done_at = coalesce(m.task_done_at, ${now})
    FROM ${conversations} v
    WHERE v.id = m.conversation_id AND v.access_code_id = ${accessCodeId} AND m.sequence = ${sequence} AND m.kind = 'task'
    RETURNING m.sequence`);
  if (rowsOf(result).length === 0) throw notFound("There is no such task.");
}

/** What a member takes away with their notebook (its download, also once the code has ended): their keys and every message, sealed. */
export async function conversationExport(db: Database, accessCodeId: number): Promise<{ id: string; keys: MemberKeys | null; messages: MessageView[] } | null> {
  const conversation = await conversationOf(db, { accessCodeId });
  if (!conversation) return null;
  return { id: conversation.state.id, keys: await memberKeys(db, accessCodeId), messages: await messagesOf(db, conversation.state.id) };
}

// -- The operator's side ------------------------------------------------------------------------

/** Every conversation, the most pressing first: by when an answer is due, then the latest. */
export async function inbox(db: Database): Promise<InboxEntry[]> {
  const rows = rowsOf<
    MessageRow & {
      id: string;
      login: string;
      level: string | null;
      is_active: string;
      expires_at: Date | string | null;
      due_at: Date | string | null;
      waiting_since: Date | string | null;
      settled: string | null;
      last_message_at: Date | string | null;
      member_public: string | null;
      unread: number;
      open_tasks: number;
      done_tasks: number;
      has_last: boolean;
    }
  >(
    await db.execute(sql`
      SELECT v.id, c.login, c.level, c.is_active, c.expires_at, v.due_at, v.waiting_since, v.settled, v.last_message_at, b.messaging_public AS member_public,
        s.unread, s.open_tasks, s.done_tasks, m.sequence IS NOT NULL AS has_last, ${messageColumns}
      FROM ${conversations} v
      JOIN ${accessCodes} c ON c.id = v.access_code_id
      LEFT JOIN ${notebooks} b ON b.access_code_id = v.access_code_id
      LEFT JOIN LATERAL (
        SELECT count(*) FILTER (WHERE x.sender = 'member' AND x.read_at IS NULL)::integer AS unread,
          count(*) FILTER (WHERE x.kind = 'task' AND x.task_done_at IS NULL)::integer AS open_tasks,
          count(*) FILTER (WHERE x.kind = 'task' AND x.task_done_at IS NOT NULL)::integer AS done_tasks
        FROM ${messages} x WHERE x.conversation_id = v.id
      ) s ON true
      LEFT JOIN LATERAL (SELECT * FROM ${messages} y WHERE y.conversation_id = v.id ORDER BY y.sequence DESC LIMIT 1) m ON true
      ORDER BY v.due_at ASC NULLS LAST, v.last_message_at DESC NULLS LAST, v.created_at DESC`),
  );
  const now = new Date();
  return rows.map((row) => ({
    id: row.id,
    login: row.login,
    tier: (row.level ?? "Operator") as Level,
    active: row.is_active === "true" && (row.expires_at === null || new Date(row.expires_at) > now),
    dueAt: iso(row.due_at),
    waitingSince: iso(row.waiting_since),
    settled: row.settled as ConversationState["settled"],
    lastMessageAt: iso(row.last_message_at),
    memberKey: row.member_public,
    unread: Number(row.unread),
    openTasks: Number(row.open_tasks),
    doneTasks: Number(row.done_tasks),
    last: row.has_last ? messageView(row) : null,
  }));
}

/** How many conversations wait for an answer (the Messages tab's label). */
export async function waitingCount(db: Database): Promise<number> {
  const [row] = rowsOf<{ n: number }>(await db.execute(sql`SELECT count(*)::integer AS n FROM ${conversations} WHERE due_at IS NOT NULL`));
  return Number(row?.n ?? 0);
}

/** One conversation as the operator opens it. */
export async function adminConversation(db: Database, id: string) {
  const found = await conversationOf(db, { id });
  if (!found) throw notFound("There is no such conversation.");
  const [code] = await db
    .select({ login: accessCodes.login, level: accessCodes.level, memberKey: notebooks.messagingPublic })
    .from(accessCodes)
    .leftJoin(notebooks, eq(notebooks.accessCodeId, accessCodes.id))
    .where(eq(accessCodes.id, found.accessCodeId));
  const windows = await replyWindows(db);
  const tier = found.state.tier;
  return {
    conversation: { ...found.state, windowHours: isMessagingTier(tier) ? windowOf(windows, tier) : 0 },
    login: code!.login,
    memberKey: code!.memberKey,
    messages: await messagesOf(db, id),
  };
}

/** The member's conversation, made if they have none yet (its id is in every message's additional data, so it comes before the first). */
export async function ensureConversation(db: Database, accessCodeId: number): Promise<string> {
  await db.execute(sql`INSERT INTO ${conversations} (access_code_id) VALUES (${accessCodeId}) ON CONFLICT (access_code_id) DO NOTHING`);
  const [row] = await db.select({ id: conversations.id }).from(conversations).where(eq(conversations.accessCodeId, accessCodeId));
  return row!.id;
}

/** Starts (or finds) the conversation with the code `login`, for the operator to write first (a task, say). */
export async function conversationWith(db: Database, login: string): Promise<string> {
  const [code] = await db.select({ id: accessCodes.id }).from(accessCodes).where(eq(accessCodes.login, login));
  if (!code) throw notFound(`No access code "${login}".`);
  return ensureConversation(db, code.id);
}

/** "No reply needed": the wait stops without an answer. */
export async function noReplyNeeded(db: Database, id: string): Promise<void> {
  const result = await db.execute(sql`UPDATE ${conversations} SET due_at = NULL, waiting_since = NULL, settled = 'no_reply' WHERE id::text = ${id} RETURNING id`);
  if (rowsOf(result).length === 0) throw notFound("There is no such conversation.");
}

/** The operator deletes a conversation with its messages: the only early end one has. */
export async function deleteConversation(db: Database, id: string): Promise<void> {
  const result = await db.execute(sql`DELETE FROM ${conversations} WHERE id::text = ${id} RETURNING id`);
  if (rowsOf(result).length === 0) throw notFound("There is no such conversation.");
}

/** Conversations whose answer is overdue at `now` (the daily event), most overdue first. */
export async function overdue(db: Database, now = new Date()): Promise<Array<{ conversation: string; tier: Level; dueAt: string }>> {
  return rowsOf<{ id: string; level: string | null; due_at: Date | string }>(
    await db.execute(sql`
      SELECT v.id, c.level, v.due_at FROM ${conversations} v JOIN ${accessCodes} c ON c.id = v.access_code_id
      WHERE v.due_at IS NOT NULL AND v.due_at < ${now} ORDER BY v.due_at`),
  ).map((row) => ({ conversation: row.id, tier: (row.level ?? "Operator") as Level, dueAt: iso(row.due_at)! }));
}

/** Queues the daily `messages.overdue` event (the overdue conversations, never words); answers how many it names. */
export async function queueOverdueEvent(db: Database, now = new Date()): Promise<number> {
  const late = await overdue(db, now);
  if (late.length > 0) await queueEvent(db, { event: "messages.overdue", at: now.toISOString(), conversations: late }, now);
  return late.length;
}

/** Erases the conversations of codes whose access ended more than NOTEBOOK_KEPT_DAYS ago (as their notebooks are); answers how many. */
export async function eraseEndedConversations(db: Database, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - NOTEBOOK_KEPT_DAYS * 24 * HOUR);
  const result = await db.execute(sql`
    DELETE FROM ${conversations} v USING ${accessCodes} c
    WHERE c.id = v.access_code_id AND (
      (c.expires_at IS NOT NULL AND c.expires_at < ${before})
      OR (c.is_active = 'false' AND coalesce(c.deactivated_at, ${now}) < ${before})
    )
    RETURNING v.id`);
  return rowsOf(result).length;
}

/** The events of the direct line a webhook receives: names and times, never words. */
export type MessagingEvent =
  | { event: "message.received"; conversation: string; tier: MessagingTier; dueAt: string; sentAt: string }
  | { event: "messages.overdue"; at: string; conversations: Array<{ conversation: string; tier: Level; dueAt: string }> };

/** Queues `payload` for every active webhook (read FOR SHARE, as lead deliveries are). */
async function queueEvent(tx: Database, payload: MessagingEvent, now: Date): Promise<void> {
  const giveUpAt = new Date(now.getTime() + RETRY_WINDOW_MS);
  await tx.execute(sql`
    INSERT INTO ${webhookDeliveries} ("webhook_id", "kind", "body", "next_attempt_at", "give_up_at", "created_at")
    SELECT ${leadWebhooks.id}, 'message', ${JSON.stringify(payload)}, ${now.toISOString()}::timestamptz, ${giveUpAt.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
    FROM ${leadWebhooks} WHERE ${leadWebhooks.active}
    FOR SHARE`);
}
