/**
 * The direct line, the operator's side (issue 43), for admins only:
 *   GET  /api/admin/messaging-key                         {key}: the operator's public key and wrapped private key, or null
 *   POST /api/admin/messaging-key {publicKey, salt, iterations, byPassphrase, byRecovery}   201: made once (409 after)
 *   PUT  /api/admin/messaging-key {version, wrapped?, recoveryKept}                         wrapped anew, or its recovery key kept
 *   GET  /api/admin/messaging-settings                    {architectHours, mastermindHours}
 *   PUT  /api/admin/messaging-settings {architectHours, mastermindHours}
 *   GET  /api/admin/conversations[?only=waiting]          {conversations, waiting}: sorted by when an answer is due (or the count alone)
 *   POST /api/admin/conversations {login}                 {id}: a conversation with that code, to write first
 *   GET  /api/admin/conversations/{id}                    the conversation and its messages (sealed)
 *   DELETE /api/admin/conversations/{id}                  gone, with its messages
 *   POST /api/admin/conversations/{id}/messages {sequence, memberKey, operatorKey, iv, ciphertext, kind?, taskDue?}
 *   PUT  /api/admin/conversations/{id}/read {through}
 *   PUT  /api/admin/conversations/{id}/no-reply           the wait stops without an answer
 */
import { z } from "../../../lib/zod.ts";
import { requireAdmin } from "../../access/admin.ts";
import { adminNow } from "../../admin/clock.ts";
import { database } from "../../db/index.ts";
import { notFound } from "../../http/errors.ts";
import { readJson } from "../../http/request.ts";
import { json, route } from "../../http/respond.ts";
import {
  adminConversation,
  changeOperatorKey,
  conversationWith,
  createOperatorKey,
  deleteConversation,
  inbox,
  markRead,
  noReplyNeeded,
  operatorKey,
  replyWindows,
  saveReplyWindows,
  sendMessage,
  waitingCount,
} from "../../messages/direct-line.ts";
import { base64, MESSAGE_BODY_LIMIT, sealedMessage } from "../messages.ts";

const wrapped = z.object({
  salt: base64(64),
  iterations: z.number().int().min(600_000, "must be at least 600000").max(10_000_000, "is too many"),
  byPassphrase: base64(512),
  byRecovery: base64(512),
});

const CONVERSATION = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const conversationId = (id: string) => {
  if (!CONVERSATION.test(id)) throw notFound("There is no such conversation.");
  return id;
};

export const adminMessagingKey = route({
  GET: async (request) => {
    await requireAdmin(request);
    return json({ key: await operatorKey(await database()) });
  },
  POST: async (request) => {
    await requireAdmin(request);
    const body = await readJson(request, wrapped.extend({ publicKey: base64(88).refine((text) => text.length === 88, "is not a P-256 public key") }));
    return json({ key: await createOperatorKey(await database(), body) }, { status: 201 });
  },
  PUT: async (request) => {
    await requireAdmin(request);
    const { version, wrapped: rewrapped, recoveryKept } = await readJson(request, z.object({ version: z.number().int().min(1), wrapped: wrapped.optional(), recoveryKept: z.boolean() }));
    return json({ key: await changeOperatorKey(await database(), version, { wrapped: rewrapped, recoveryKept }) });
  },
});

const hours = z.number().int().min(1, "must be at least 1 hour").max(720, "must be at most 720 hours (30 days)");

export const adminMessagingSettings = route({
  GET: async (request) => {
    await requireAdmin(request);
    return json(await replyWindows(await database()));
  },
  PUT: async (request) => {
    await requireAdmin(request);
    const windows = await readJson(request, z.object({ architectHours: hours, mastermindHours: hours }));
    return json(await saveReplyWindows(await database(), windows));
  },
});

export const adminConversations = route({
  GET: async (request) => {
    await requireAdmin(request);
    const db = await database();
    // (The tab's label needs the count alone: ?only=waiting.)
    if (new URL(request.url).searchParams.get("only") === "waiting") return json({ waiting: await waitingCount(db) });
    const [conversations, waiting] = await Promise.all([inbox(db), waitingCount(db)]);
    return json({ conversations, waiting });
  },
  POST: async (request) => {
    await requireAdmin(request);
    const { login } = await readJson(request, z.object({ login: z.string().trim().min(1, "is required").max(100, "is too long") }));
    return json({ id: await conversationWith(await database(), login) }, { status: 201 });
  },
});

export const adminConversationOne = route<[id: string]>({
  GET: async (request, id) => {
    await requireAdmin(request);
    return json(await adminConversation(await database(), conversationId(id)));
  },
  DELETE: async (request, id) => {
    await requireAdmin(request);
    await deleteConversation(await database(), conversationId(id));
    return json({ deleted: true });
  },
});

export const adminConversationMessages = route<[id: string]>({
  POST: async (request, id) => {
    await requireAdmin(request);
    const body = await readJson(
      request,
      sealedMessage.extend({ kind: z.enum(["message", "task"]).default("message"), taskDue: z.iso.datetime({ offset: true }).nullable().optional() }),
      MESSAGE_BODY_LIMIT,
    );
    const { taskDue, ...message } = body;
    return json(await sendMessage(await database(), { conversation: conversationId(id) }, "operator", { ...message, taskDue: taskDue ? new Date(taskDue) : null }, adminNow()), { status: 201 });
  },
});

export const adminConversationRead = route<[id: string]>({
  PUT: async (request, id) => {
    await requireAdmin(request);
    const { through } = await readJson(request, z.object({ through: z.number().int().min(1, "must be at least 1") }));
    return json({ read: await markRead(await database(), conversationId(id), "operator", through, adminNow()) });
  },
});

export const adminConversationNoReply = route<[id: string]>({
  PUT: async (request, id) => {
    await requireAdmin(request);
    await noReplyNeeded(await database(), conversationId(id));
    return json({ settled: "no_reply" });
  },
});
