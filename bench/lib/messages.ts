/**
 * The direct line at scale (issue 43), on PostgreSQL. Figures, never pass/fail.
 *
 * - 500 conversations x 50 messages (25,000 sealed messages, ciphertext-sized rows written in SQL),
 *   listed as the operator's inbox lists them (`inbox`, the API's own statement): the median of 7.
 * - The inbox opened as the panel opens it: the 500 conversations' last messages, 500 of them
 *   really sealed here, decrypted with WebCrypto (Node's, the browsers' algorithm: ECDH P-256,
 *   HKDF, AES-GCM); the median of 7, fresh keys each time (every conversation's key derived).
 * - One conversation of 500 messages, really sealed: read (`adminConversation`) and every message
 *   decrypted, as the panel opens it; the median of 7, fresh keys each time.
 *
 * A scratch database is created on the server of `baseUrl` and dropped afterwards.
 */
import { seed } from "../../src/server/content/seed.ts";
import { openDatabase } from "../../src/server/db/client.ts";
import { sql } from "../../src/server/db/orm.ts";
import { adminConversation, inbox } from "../../src/server/messages/direct-line.ts";
import { newKeyPair, sealMessage } from "../../src/lib/messages/crypto.ts";
import { ConversationKeys } from "../../src/lib/messages/line.ts";
import { createScratchDatabase } from "../../tests/support/databases.ts";
import { medianMs, round } from "./timing.ts";

const CONVERSATIONS = 500;
const PER_CONVERSATION = 50;
const LONG = 500;

const words = (i: number) =>
  `Message ${i + 1}: this morning the voice started before the kettle boiled. I wrote its first sentence down, word for word, as you asked. ` +
  `It was the same one as yesterday. What do I do with a sentence that repeats?`;

export async function messagesScale(baseUrl: string, log: (line: string) => void): Promise<Record<string, number>> {
  const scratch = await createScratchDatabase(baseUrl);
  try {
    const handle = await openDatabase({ driver: "pg", url: scratch.url });
    try {
      await handle.migrate();
      await seed(handle.db);
      const db = handle.db;
      const operator = await newKeyPair();
      const member = await newKeyPair();
      await db.execute(sql`INSERT INTO messaging_keys (id, public_key, salt, iterations, by_passphrase, by_recovery) VALUES (1, ${operator.publicKey}, 'c2FsdA==', 600000, 'd3JhcA==', 'd3JhcA==')`);
      await db.execute(sql`
        INSERT INTO access_codes (login, password, level)
        SELECT format('bench-line-%s', lpad(n::text, 3, '0')), 'scrypt$bench', CASE WHEN n % 4 = 0 THEN 'Mastermind' ELSE 'Architect' END
        FROM generate_series(1, ${CONVERSATIONS}::integer) AS n`);
      await db.execute(sql`
        INSERT INTO notebooks (access_code_id, salt, iterations, by_passphrase, by_recovery, messaging_public)
        SELECT id, 'c2FsdA==', 600000, 'd3JhcA==', 'd3JhcA==', ${member.publicKey} FROM access_codes WHERE login LIKE 'bench-line-%'`);
      await db.execute(sql`
        INSERT INTO conversations (access_code_id, due_at, waiting_since, last_message_at)
        SELECT id, CASE WHEN id % 3 = 0 THEN now() + (id % 24) * interval '1 hour' ELSE NULL END, now(), now() - id * interval '1 minute'
        FROM access_codes WHERE login LIKE 'bench-line-%'`);
      // Ciphertext-sized rows for all but each conversation's last message.
      await db.execute(sql`
        INSERT INTO messages (conversation_id, sequence, sender, member_key, operator_key, iv, ciphertext, created_at)
        SELECT v.id, k, CASE WHEN k % 2 = 0 THEN 'operator' ELSE 'member' END, ${member.publicKey}, ${operator.publicKey},
          'AAAAAAAAAAAAAAAA', repeat(md5(v.id::text || '.' || k::text), 22), now() - (${PER_CONVERSATION} - k) * interval '1 hour'
        FROM conversations v CROSS JOIN generate_series(1, ${PER_CONVERSATION - 1}::integer) AS k`);
      // Each last message really sealed, as the member's browser seals it.
      const ids = ((await db.execute(sql`SELECT id FROM conversations ORDER BY id`)) as unknown as { rows: Array<{ id: string }> }).rows.map((r) => r.id);
      const sender = new ConversationKeys("member", member.privateKey);
      for (const [i, id] of ids.entries()) {
        const key = await sender.of(id, member.publicKey, operator.publicKey);
        const sealed = await sealMessage(key, { conversation: id, sender: "member", sequence: PER_CONVERSATION }, { text: words(i) });
        await db.execute(sql`
          INSERT INTO messages (conversation_id, sequence, sender, member_key, operator_key, iv, ciphertext)
          VALUES (${id}::uuid, ${PER_CONVERSATION}, 'member', ${member.publicKey}, ${operator.publicKey}, ${sealed.iv}, ${sealed.ciphertext})`);
      }
      // One long conversation: LONG messages, really sealed.
      const long = ids[0]!;
      await db.execute(sql`DELETE FROM messages WHERE conversation_id = ${long}::uuid`);
      const key = await sender.of(long, member.publicKey, operator.publicKey);
      for (let sequence = 1; sequence <= LONG; sequence++) {
        const sealed = await sealMessage(key, { conversation: long, sender: "member", sequence }, { text: words(sequence) });
        await db.execute(sql`
          INSERT INTO messages (conversation_id, sequence, sender, member_key, operator_key, iv, ciphertext)
          VALUES (${long}::uuid, ${sequence}, 'member', ${member.publicKey}, ${operator.publicKey}, ${sealed.iv}, ${sealed.ciphertext})`);
      }
      await db.execute(sql`ANALYZE`);
      log(`Direct line: ${CONVERSATIONS} conversations x ${PER_CONVERSATION} messages, and one of ${LONG}, on PostgreSQL`);

      const listed = await medianMs(() => inbox(db));
      const entries = await inbox(db);
      const inboxBytes = JSON.stringify(entries).length;
      const openedInbox = await medianMs(async () => {
        const operatorSide = new ConversationKeys("operator", operator.privateKey);
        const opened = await Promise.all(entries.map(async (entry) => (entry.last ? (await operatorSide.openAll(entry.id, [entry.last]))[0] : null)));
        if (opened.some((message) => message && !message.plain)) throw new Error("A last message did not open.");
      });
      const openedLong = await medianMs(async () => {
        const operatorSide = new ConversationKeys("operator", operator.privateKey);
        const conversation = await adminConversation(db, long);
        const opened = await operatorSide.openAll(long, conversation.messages);
        if (opened.length !== LONG || opened.some((message) => !message.plain)) throw new Error("The long conversation did not open whole.");
      });
      return {
        conversations: CONVERSATIONS,
        messages: CONVERSATIONS * PER_CONVERSATION,
        inboxListedMs: listed,
        inboxBytes,
        inboxListedAndOpenedMs: round(listed + openedInbox),
        longConversation: LONG,
        longConversationOpenedMs: openedLong,
      };
    } finally {
      await handle.close();
    }
  } finally {
    await scratch.drop();
  }
}

export function messagesLine(f: Record<string, number>): string {
  return (
    `Direct line, ${f.conversations} conversations x ${Number(f.messages) / Number(f.conversations)} messages on PostgreSQL: the inbox listed in ${f.inboxListedMs} ms ` +
    `(${Math.round(Number(f.inboxBytes) / 1024)} KB of JSON), listed and its ${f.conversations} last messages decrypted in ${f.inboxListedAndOpenedMs} ms (target <= 300); ` +
    `a conversation of ${f.longConversation} messages read and decrypted in ${f.longConversationOpenedMs} ms (target <= 300)`
  );
}
