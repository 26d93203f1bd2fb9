/**
 * The direct line, the member's side (issue 43): their conversation with the operator, sealed in
 * their browser. Every call acts on the session's own code: no request names another.
 *   GET  /api/messages                       {conversation, windowHours, messages, operatorKey, keys}
 *   POST /api/messages {sequence, memberKey, operatorKey, iv, ciphertext, answerTo?}   201 {message, conversation}
 *   PUT  /api/messages/keys {notebook, publicKey?, privateKey?, pin}                  the member's key and pin, kept in their notebook
 *   POST /api/messages/conversation          {id}: their conversation, made if it is not there yet
 *   PUT  /api/messages/read {through}        the operator's messages shown, through that sequence
 *   PUT  /api/messages/tasks/{sequence}/done a task marked done
 *   GET  /api/messages/passage/{subsectionId} the passage as the member names it (a live one they may read; 404 otherwise)
 */
import { z } from "../../lib/zod.ts";
import { MESSAGE_MAX_CHARS } from "../../lib/messages/limits.ts";
import { readerSession } from "../auth/session.ts";
import { database, keepConnectionUntil } from "../db/index.ts";
import { notFound, unauthenticated } from "../http/errors.ts";
import { readJson } from "../http/request.ts";
import { json, route } from "../http/respond.ts";
import { workQueue } from "../leads/delivery-queue.ts";
import { webhooksInProduction } from "../leads/environment.ts";
import { ensureConversation, keepMemberKeys, markRead, markTaskDone, memberConversation, sendMessage } from "../messages/direct-line.ts";
import { deferAfterResponse } from "../runtime/request-scope.ts";
import type { Database } from "../db/types.ts";
import { passageOf } from "../notebook/notebook.ts";

/** A base64 string of at most `max` characters. */
export const base64 = (max: number) =>
  z
    .string()
    .min(1, "is required")
    .max(max, `is longer than ${max} characters`)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, "is not base64");

/**
 * The longest sealed message, in base64 characters: MESSAGE_MAX_CHARS characters, each at most 3
 * bytes of UTF-8 escaped at worst to 6 in JSON, with a passage's names, padding and the tag.
 */
export const MAX_MESSAGE_CIPHERTEXT_CHARS = 4 * Math.ceil((MESSAGE_MAX_CHARS * 6 + 8192 + 16) / 3);

/** A public key of the direct line: P-256, raw (65 bytes: 88 base64 characters). */
const publicKey = base64(88).refine((text) => text.length === 88, "is not a P-256 public key");

/** What every sealed message carries, from either side. */
export const sealedMessage = z.object({
  sequence: z.number().int().min(1, "must be at least 1").max(2_000_000_000, "is too large"),
  memberKey: publicKey,
  operatorKey: publicKey,
  iv: base64(24).refine((text) => text.length === 16, "must be 12 bytes"),
  ciphertext: base64(MAX_MESSAGE_CIPHERTEXT_CHARS).refine((text) => text.length >= 24, "is too short to be a sealed message"),
});

/** A message body may be this large (JSON and its ciphertext at their longest). */
export const MESSAGE_BODY_LIMIT = MAX_MESSAGE_CIPHERTEXT_CHARS + 2048;

async function requireMember(request: Request) {
  const session = await readerSession(await database(), request);
  if (!session) throw unauthenticated("Sign in with your access code to read your messages.");
  return session;
}

/** Sends the webhook events a message queued, after the answer (what fails waits for its retry). */
export function deliverSoon(db: Database): void {
  const delivering = workQueue(db, { publicOnly: webhooksInProduction(), budgetMs: 15_000 });
  keepConnectionUntil(delivering.catch(() => {}));
  deferAfterResponse(delivering);
}

export const memberMessages = route({
  GET: async (request) => {
    const member = await requireMember(request);
    return json(await memberConversation(await database(), member));
  },
  POST: async (request) => {
    const body = await readJson(request, sealedMessage.extend({ answerTo: z.number().int().min(1).optional() }), MESSAGE_BODY_LIMIT);
    const member = await requireMember(request);
    const db = await database();
    const sent = await sendMessage(db, { accessCodeId: member.accessCodeId }, "member", body);
    deliverSoon(db);
    return json(sent, { status: 201 });
  },
});

const keysBody = z
  .object({
    notebook: z.string().regex(/^[0-9a-f-]{36}$/, "is not a notebook's id"),
    publicKey: publicKey.optional(),
    privateKey: base64(1024).optional(),
    pin: z.object({ iv: base64(24), ciphertext: base64(512) }),
  })
  .refine((body) => (body.publicKey === undefined) === (body.privateKey === undefined), "publicKey and privateKey come together");

export const memberMessageKeys = route({
  PUT: async (request) => {
    const { notebook, ...keys } = await readJson(request, keysBody, 8 * 1024);
    const member = await requireMember(request);
    return json({ keys: await keepMemberKeys(await database(), member.accessCodeId, notebook, keys) });
  },
});

export const memberConversationStart = route({
  POST: async (request) => {
    const member = await requireMember(request);
    return json({ id: await ensureConversation(await database(), member.accessCodeId) });
  },
});

export const memberMessagesRead = route({
  PUT: async (request) => {
    const { through } = await readJson(request, z.object({ through: z.number().int().min(1, "must be at least 1") }));
    const member = await requireMember(request);
    const db = await database();
    const { conversation } = await memberConversation(db, member);
    if (!conversation) throw notFound("There is no conversation yet.");
    return json({ read: await markRead(db, conversation.id, "member", through) });
  },
});

export const memberTaskDone = route<[sequence: string]>({
  PUT: async (request, sequence) => {
    const member = await requireMember(request);
    if (!/^[1-9]\d{0,9}$/.test(sequence)) throw notFound("There is no such task.");
    await markTaskDone(await database(), member.accessCodeId, Number(sequence));
    return json({ done: true });
  },
});

export const memberPassage = route<[subsectionId: string]>({
  GET: async (request, id) => {
    const member = await requireMember(request);
    const passage = /^[1-9]\d{0,9}$/.test(id) ? await passageOf(await database(), member, Number(id)) : null;
    if (!passage) throw notFound("There is no such passage open to you.");
    return json({ passage });
  },
});
