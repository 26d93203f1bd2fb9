/**
 * The database schema: every entity of SPEC.md section 3, plus what sessions, admin accounts and
 * rate limiting need. Changing this file means `npm run db:generate` to add a migration.
 *
 * Flags the spec stores as text ("true"/"false") stay text, guarded by CHECK constraints.
 */
import { sql } from "./orm.ts";
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "../../../node_modules/drizzle-orm/pg-core/index.js"; // by path: see orm.ts

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();
const levelCheck = (column: string) =>
  sql.raw(`${column} IS NULL OR ${column} IN ('Operator', 'Architect', 'Mastermind')`);
const textFlag = (column: string) => sql.raw(`${column} IN ('true', 'false')`);

/**
 * Drafts and who saved (issue 14): `status` 'draft' keeps a chapter or subsection from readers
 * altogether; `draft` holds a pending edit of a published one (its fields, as the admin form sends
 * them) while the published text stays live; `publishAt` publishes either at that time (the
 * scheduled job, src/server/maintenance/scheduled-publishing.ts). `updatedBy` names the admin who
 * saved the current version, so a revision can say who wrote it.
 */
const publishing = () => ({
  status: text("status").notNull().default("published"),
  updatedBy: text("updated_by"),
  draft: jsonb("draft"),
  draftSavedAt: timestamp("draft_saved_at", { withTimezone: true }),
  draftSavedBy: text("draft_saved_by"),
  publishAt: timestamp("publish_at", { withTimezone: true }),
});
const statusCheck = (column: string) => sql.raw(`${column} IN ('published', 'draft')`);

export const users = pgTable("users", {
  id: serial("id").primaryKey(),
  email: text("email").notNull().unique(),
  firstName: text("first_name"),
  lastName: text("last_name"),
  profileImageUrl: text("profile_image_url"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const accessCodes = pgTable(
  "access_codes",
  {
    id: serial("id").primaryKey(),
    login: text("login").notNull().unique(),
    /** scrypt hash, never the password itself (see src/server/auth/password.ts). */
    password: text("password").notNull(),
    level: text("level").notNull(),
    isActive: text("is_active").notNull().default("true"),
    createdAt: createdAt(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    /** When the code stops opening anything, its sessions with it (issue 14: 6); null: never. */
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    /**
     * How many sessions the code may have at once: a sign-in beyond it ends the oldest. Enforced by
     * the trigger `sessions_cap` (migration 0008), so it holds for sign-ins sent at once.
     */
    maxSessions: integer("max_sessions").notNull().default(3),
    /** When the code was last deactivated (null while active): its member's notebook is kept 30 days from the end of access (issue 32). */
    deactivatedAt: timestamp("deactivated_at", { withTimezone: true }),
  },
  (t) => [
    check("access_codes_level_check", levelCheck("level")),
    check("access_codes_is_active_check", textFlag("is_active")),
    check("access_codes_max_sessions_check", sql`${t.maxSessions} BETWEEN 1 AND 100`),
    index("access_codes_user_id_idx").on(t.userId),
  ],
);

export const adminAccounts = pgTable("admin_accounts", {
  id: serial("id").primaryKey(),
  email: text("email").notNull().unique(),
  passwordHash: text("password_hash").notNull(),
  createdAt: createdAt(),
  lastLoginAt: timestamp("last_login_at", { withTimezone: true }),
});

/**
 * The session store (sid, sess, expire). A signed token names its sid; deleting the row revokes it.
 * A reader session points at its access code, an admin session at its admin account, so that
 * deactivating a code or removing an admin ends their sessions at once (cascade).
 */
export const sessions = pgTable(
  "sessions",
  {
    sid: text("sid").primaryKey(),
    sess: jsonb("sess").notNull(),
    expire: timestamp("expire", { withTimezone: true }).notNull(),
    accessCodeId: integer("access_code_id").references(() => accessCodes.id, { onDelete: "cascade" }),
    adminId: integer("admin_id").references(() => adminAccounts.id, { onDelete: "cascade" }),
    /** When the session was opened: the oldest of a code's sessions is the one a sign-in over its cap ends. */
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
  },
  (t) => [
    index("sessions_expire_idx").on(t.expire),
    index("sessions_access_code_id_idx").on(t.accessCodeId),
    index("sessions_admin_id_idx").on(t.adminId),
  ],
);

/**
 * Why a reader session ended, where the reader should be told (issue 22: 8): a sign-in beyond its
 * code's cap ended it (`replaced`, written by the trigger `sessions_cap`). Kept by the SHA-256 of
 * the sid (never the sid itself), for as long as a reader session could have lasted; the retention
 * job removes older rows.
 */
export const sessionEndings = pgTable(
  "session_endings",
  {
    sidHash: text("sid_hash").primaryKey(),
    reason: text("reason").notNull(),
    endedAt: timestamp("ended_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("session_endings_ended_at_idx").on(t.endedAt), check("session_endings_reason_check", sql`${t.reason} in ('replaced')`)],
);

/**
 * One counter per limited key (a client address, an account...): the attempts since its window
 * opened. One statement both counts an attempt and answers the count (src/server/access/rate-limit.ts),
 * so a limit holds for requests sent at once to any number of instances.
 */
export const rateLimitCounters = pgTable(
  "rate_limit_counters",
  {
    bucket: text("bucket").notNull(),
    key: text("key").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.key] }), index("rate_limit_counters_window_idx").on(t.windowStart)],
);

export const chapters = pgTable(
  "chapters",
  {
    id: serial("id").primaryKey(),
    /** Unique among live chapters: a deleted chapter's slug may be reused (restoring it then is 409). */
    slug: text("slug").notNull(),
    title: text("title").notNull(),
    content: text("content").notNull(),
    readingTime: integer("reading_time").notNull().default(5),
    order: integer("order").notNull().default(0),
    level: text("level").default("Operator"),
    /**
     * Optional words the operator writes to tell readers without access what a locked chapter
     * holds (never its content). Shown only while the chapter is Architect or Mastermind.
     */
    teaser: text("teaser"),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    ...publishing(),
  },
  (t) => [
    check("chapters_status_check", statusCheck("status")),
    index("chapters_publish_at_idx").on(t.publishAt).where(sql`${t.publishAt} IS NOT NULL`),
    uniqueIndex("chapters_live_slug_idx").on(t.slug).where(sql`${t.deletedAt} IS NULL`),
    check("chapters_level_check", levelCheck("level")),
    check("chapters_reading_time_check", sql`${t.readingTime} >= 0`),
    check("chapters_order_check", sql`${t.order} >= 0`),
    index("chapters_live_order_idx").on(t.level, t.order).where(sql`${t.deletedAt} IS NULL`),
    index("chapters_deleted_at_idx").on(t.deletedAt).where(sql`${t.deletedAt} IS NOT NULL`),
    check("chapters_teaser_length_check", sql`char_length(${t.teaser}) <= 300`),
    // Full-text search of locked levels (src/server/search): the same expression as the query's,
    // accents folded (fold_accents: migration 0020, src/lib/accent-folding.ts).
    index("chapters_search_idx").using("gin", sql`to_tsvector('english', fold_accents(${t.title} || ' ' || ${t.content}))`),
  ],
);

export const subsections = pgTable(
  "subsections",
  {
    id: serial("id").primaryKey(),
    chapterId: integer("chapter_id")
      .notNull()
      .references(() => chapters.id, { onDelete: "cascade" }),
    /** Anchor of the subsection within its chapter page; unique among the chapter's live subsections. */
    slug: text("slug").notNull(),
    title: text("title").notNull(),
    content: text("content").notNull(),
    photo: text("photo"),
    photoAlt: text("photo_alt"),
    order: integer("order").notNull().default(0),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    ...publishing(),
  },
  (t) => [
    check("subsections_status_check", statusCheck("status")),
    index("subsections_publish_at_idx").on(t.publishAt).where(sql`${t.publishAt} IS NOT NULL`),
    uniqueIndex("subsections_chapter_live_slug_idx").on(t.chapterId, t.slug).where(sql`${t.deletedAt} IS NULL`),
    index("subsections_live_order_idx").on(t.chapterId, t.order).where(sql`${t.deletedAt} IS NULL`),
    index("subsections_deleted_at_idx").on(t.deletedAt).where(sql`${t.deletedAt} IS NOT NULL`),
    check("subsections_order_check", sql`${t.order} >= 0`),
    index("subsections_search_idx").using("gin", sql`to_tsvector('english', fold_accents(${t.title} || ' ' || ${t.content}))`),
  ],
);

export const assessmentSessions = pgTable(
  "assessment_sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    name: text("name"),
    email: text("email"),
    completed: text("completed").notNull().default("false"),
    score: integer("score"),
    scoreBreakdown: jsonb("score_breakdown"),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    /**
     * SHA-256 (hex) of the result link's token (src/server/assessment/result-link.ts): the token
     * itself is only ever in the respondent's hands.
     */
    resultTokenHash: text("result_token_hash"),
  },
  (t) => [
    check("assessment_sessions_completed_check", textFlag("completed")),
    index("assessment_sessions_started_at_idx").on(t.startedAt),
    uniqueIndex("assessment_sessions_result_token_idx").on(t.resultTokenHash),
    index("assessment_sessions_completed_at_idx").on(t.completedAt).where(sql`${t.completedAt} IS NOT NULL`),
  ],
);

export const assessmentResponses = pgTable(
  "assessment_responses",
  {
    id: serial("id").primaryKey(),
    sessionId: uuid("session_id")
      .notNull()
      .references(() => assessmentSessions.id, { onDelete: "cascade" }),
    questionNumber: integer("question_number").notNull(),
    answer: text("answer").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("assessment_responses_session_question_idx").on(t.sessionId, t.questionNumber),
    check("assessment_responses_question_check", sql`${t.questionNumber} BETWEEN 1 AND 15`),
    check("assessment_responses_answer_check", sql`${t.answer} IN ('A', 'B', 'C', 'D')`),
  ],
);

/**
 * A signed-in client's reading, for their profile figures: one row per reading session (a pause
 * of more than 30 minutes starts a new one), extended by heartbeats from the chapter pages.
 */
export const readingSessions = pgTable(
  "reading_sessions",
  {
    id: serial("id").primaryKey(),
    accessCodeId: integer("access_code_id")
      .notNull()
      .references(() => accessCodes.id, { onDelete: "cascade" }),
    chapterId: integer("chapter_id").references(() => chapters.id, { onDelete: "set null" }),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull(),
    seconds: integer("seconds").notNull().default(0),
  },
  (t) => [index("reading_sessions_code_seen_idx").on(t.accessCodeId, t.lastSeenAt), check("reading_sessions_seconds_check", sql`${t.seconds} >= 0`)],
);

/**
 * A member's reading folded into one row per access code, chapter and UTC day (issue 23): what the
 * admin panel's Readers tab and the profile's streak read. A heartbeat adds its seconds to the day's
 * row, so rows grow with days read, never with heartbeats. `finished`: the reader reached the
 * chapter's last subsection that day (src/lib/reading-terms.ts defines the words). Kept
 * `RETENTION_READING_TOTALS_DAYS`, and erased with the code's reading.
 */
export const readingDays = pgTable(
  "reading_days",
  {
    accessCodeId: integer("access_code_id")
      .notNull()
      .references(() => accessCodes.id, { onDelete: "cascade" }),
    chapterId: integer("chapter_id")
      .notNull()
      .references(() => chapters.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    seconds: integer("seconds").notNull().default(0),
    finished: boolean("finished").notNull().default(false),
    lastAt: timestamp("last_at", { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accessCodeId, t.chapterId, t.day] }),
    index("reading_days_chapter_idx").on(t.chapterId),
    index("reading_days_day_idx").on(t.day),
    check("reading_days_seconds_check", sql`${t.seconds} >= 0`),
  ],
);

/**
 * Where a member is in the book (issue 23): the chapter and subsection of their last heartbeat,
 * on whichever device, for /resume's and the profile's Continue. One row per code, which also
 * holds the heartbeat throttle: `countedAt` is the last heartbeat that counted, and `counted`
 * whether the latest one did (one counts at most every 15 seconds).
 */
export const readingPlaces = pgTable("reading_places", {
  accessCodeId: integer("access_code_id")
    .primaryKey()
    .references(() => accessCodes.id, { onDelete: "cascade" }),
  chapterId: integer("chapter_id")
    .notNull()
    .references(() => chapters.id, { onDelete: "cascade" }),
  subsectionId: integer("subsection_id").references(() => subsections.id, { onDelete: "set null" }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  countedAt: timestamp("counted_at", { withTimezone: true }).notNull(),
  counted: boolean("counted").notNull(),
});

/**
 * Earlier versions of chapters and subsections (issue 14): every save keeps the version it replaces,
 * with every field (`fields`), who saved it and when, and who replaced it and when. Written in the
 * save's transaction; soft deletes leave them alone, and they go with their item only when
 * retention removes the item for good. Kept 90 days, and always the last 50 of an item
 * (src/server/content/revisions.ts prunes).
 */
export const contentRevisions = pgTable(
  "content_revisions",
  {
    id: serial("id").primaryKey(),
    chapterId: integer("chapter_id").references(() => chapters.id, { onDelete: "cascade" }),
    subsectionId: integer("subsection_id").references(() => subsections.id, { onDelete: "cascade" }),
    fields: jsonb("fields").notNull(),
    savedAt: timestamp("saved_at", { withTimezone: true }).notNull(),
    savedBy: text("saved_by"),
    replacedAt: timestamp("replaced_at", { withTimezone: true }).notNull(),
    replacedBy: text("replaced_by"),
  },
  (t) => [
    check("content_revisions_item_check", sql.raw("num_nonnulls(chapter_id, subsection_id) = 1")),
    index("content_revisions_chapter_idx").on(t.chapterId, t.replacedAt),
    index("content_revisions_subsection_idx").on(t.subsectionId, t.replacedAt),
    index("content_revisions_replaced_at_idx").on(t.replacedAt),
  ],
);

export type ChapterRow = typeof chapters.$inferSelect;
export type SubsectionRow = typeof subsections.$inferSelect;

/**
 * One-time tokens of the first-admin setup link (issue 6): only a SHA-256 of the token is kept, with
 * an expiry. A start while no admin exists replaces any earlier token; once an admin exists none works.
 */
export const adminSetupTokens = pgTable("admin_setup_tokens", {
  tokenHash: text("token_hash").primaryKey(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  createdAt: createdAt(),
});

/**
 * Whether the static site shows the latest content, shared by every instance: a single row (id 1).
 * `requestedAt` is the last content change; a publish that started before it leaves work pending.
 */
export const publishState = pgTable(
  "publish_state",
  {
    id: integer("id").primaryKey().default(1),
    state: text("state").notNull().default("live"),
    requestedAt: timestamp("requested_at", { withTimezone: true }),
    startedAt: timestamp("started_at", { withTimezone: true }),
    lastPublishedAt: timestamp("last_published_at", { withTimezone: true }),
    error: text("error"),
    /** The content stamp (src/server/build/snapshot.ts) the live static site was built from. */
    siteStamp: text("site_stamp"),
    /** The text stamps of the open chapters the live site's search files index (snapshot.ts SiteContent). */
    siteTextStamps: jsonb("site_text_stamps").$type<string[]>(),
  },
  () => [
    check("publish_state_singleton_check", sql.raw("id = 1")),
    check("publish_state_state_check", sql.raw("state IN ('live', 'publishing', 'failed')")),
  ],
);

/**
 * The book's content version (issue 20: 7): one row whose `version` moves on with every statement
 * that writes chapters or subsections (triggers of migration 0011, inside the writing transaction),
 * so a page rendered from the content is kept under the version it was read at
 * (src/server/pages/render-cache.ts), and a save, a restore, a move or a deletion made through any
 * road (the panel, the CLI, the scheduled job, a restore) is seen by the next request on every
 * server. Not backed up (src/server/backup/catalog.ts): a restore's own writes move it on.
 */
export const contentVersion = pgTable(
  "content_version",
  {
    id: integer("id").primaryKey().default(1),
    version: integer("version").notNull().default(0),
  },
  () => [check("content_version_singleton_check", sql.raw("id = 1"))],
);

/**
 * Cache purges as jobs (src/server/publish/cache-purge.ts): written before the purge is tried,
 * open (`doneAt` null) until a purge of its tags succeeds, retried with backoff meanwhile. Locally
 * a row is written done, and tells every server sharing this database to drop what another one
 * purged (the local host's stand-in for Netlify's CDN purge). Done rows are kept an hour.
 */
export const cachePurges = pgTable(
  "cache_purges",
  {
    id: serial("id").primaryKey(),
    tags: text("tags").array().notNull(),
    createdAt: createdAt(),
    doneAt: timestamp("done_at", { withTimezone: true }),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lastError: text("last_error"),
  },
  (t) => [
    index("cache_purges_created_idx").on(t.createdAt),
    index("cache_purges_open_idx").on(t.nextAttemptAt).where(sql`${t.doneAt} IS NULL`),
  ],
);

/**
 * Which database production uses (host and database name, never credentials), recorded by each
 * production build: a deploy-preview build pointed at the same database is refused
 * (src/server/build/deploy-context.ts). A Neon branch copies this row, but has a host of its own.
 */
export const siteIdentity = pgTable(
  "site_identity",
  {
    id: integer("id").primaryKey().default(1),
    productionDatabase: text("production_database").notNull(),
    recordedAt: timestamp("recorded_at", { withTimezone: true }).notNull().defaultNow(),
  },
  () => [check("site_identity_singleton_check", sql.raw("id = 1"))],
);

/**
 * Where completed scans are sent (issue 15): addresses the operator sets in the admin panel, each
 * with a signing secret of its own (src/server/leads).
 */
export const leadWebhooks = pgTable("lead_webhooks", {
  id: serial("id").primaryKey(),
  url: text("url").notNull(),
  /** HMAC-SHA256 key of the signature header; shown to the operator, who gives it to the receiver. */
  secret: text("secret").notNull(),
  active: boolean("active").notNull().default(true),
  createdAt: createdAt(),
});

/**
 * The delivery queue and its log: one row per (webhook, scan) or per test. A worker claims a due
 * row by taking a lease (`leaseUntil`) in one statement; the body is fixed when queued, so every
 * attempt sends the same bytes. States: pending (waiting for `nextAttemptAt`), delivered, failed
 * (gave up after `giveUpAt`).
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: serial("id").primaryKey(),
    webhookId: integer("webhook_id")
      .notNull()
      .references(() => leadWebhooks.id, { onDelete: "cascade" }),
    sessionId: uuid("session_id").references(() => assessmentSessions.id, { onDelete: "cascade" }),
    kind: text("kind").notNull().default("lead"),
    body: text("body").notNull(),
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    lastError: text("last_error"),
    lastStatus: integer("last_status"),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    giveUpAt: timestamp("give_up_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check("webhook_deliveries_status_check", sql.raw("status IN ('pending', 'delivered', 'failed')")),
    check("webhook_deliveries_kind_check", sql.raw("kind IN ('lead', 'test', 'message')")),
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index("webhook_deliveries_webhook_idx").on(t.webhookId, t.createdAt),
  ],
);

/**
 * A member's notebook (issue 32): the notebook key, wrapped in the member's browser by a key made
 * from their passphrase (PBKDF2 with this salt and iteration count) and by their recovery key.
 * The server never holds the key unwrapped, nor the passphrase or the recovery key. `id` names the
 * notebook to the browser (which keeps its unwrapped key under it); `version` moves with each new
 * wrapping (a passphrase replaced), so two devices cannot overwrite each other's.
 */
export const notebooks = pgTable(
  "notebooks",
  {
    accessCodeId: integer("access_code_id")
      .primaryKey()
      .references(() => accessCodes.id, { onDelete: "cascade" }),
    id: uuid("id").notNull().defaultRandom(),
    salt: text("salt").notNull(),
    iterations: integer("iterations").notNull(),
    byPassphrase: text("by_passphrase").notNull(),
    byRecovery: text("by_recovery").notNull(),
    version: integer("version").notNull().default(1),
    /**
     * Whether the member showed they kept the recovery key of the current wrapping (typed its end
     * once it was shown, or opened the notebook with it): false from a notebook's start until then,
     * so a tab closed before that is told at the next open (issue 42: 7).
     */
    recoveryKept: boolean("recovery_kept").notNull().default(true),
    /** The member's messaging public key (issue 43; ECDH P-256, raw, base64), or null before their first message. */
    messagingPublic: text("messaging_public"),
    /** Its private key, encrypted under the notebook key in the member's browser (src/lib/messages/crypto.ts). */
    messagingPrivate: text("messaging_private"),
    /** The operator's public key the member pinned, sealed under the notebook key: IV and ciphertext. */
    operatorPinIv: text("operator_pin_iv"),
    operatorPin: text("operator_pin"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check("notebooks_iterations_check", sql`${t.iterations} >= 600000`)],
);

/**
 * A member's note on one subsection, encrypted in their browser under the notebook key (AES-GCM,
 * the notebook, subsection and version bound as additional data): the server keeps the
 * ciphertext, its IV, the version and the times, nothing it could read. `subsectionId` has no
 * foreign key on purpose: a note outlives a change to the book (its passage moved, withdrawn or
 * deleted for good). An erased note keeps its row with no IV or ciphertext, so that its version
 * only moves forward: a note written there again continues past it (issue 42: 5).
 */
export const notes = pgTable(
  "notes",
  {
    accessCodeId: integer("access_code_id")
      .notNull()
      .references(() => notebooks.accessCodeId, { onDelete: "cascade" }),
    subsectionId: integer("subsection_id").notNull(),
    version: integer("version").notNull(),
    iv: text("iv"),
    ciphertext: text("ciphertext"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.accessCodeId, t.subsectionId] }),
    check("notes_version_check", sql`${t.version} >= 1`),
    check("notes_sealed_check", sql`(${t.iv} IS NULL) = (${t.ciphertext} IS NULL)`),
  ],
);

/**
 * The operator's messaging key pair (issue 43), one row: the public key members seal to, and the
 * private key as the operator's browser wrapped it (by the operator's passphrase and a recovery
 * key: src/lib/notebook/crypto.ts's vault). The server never holds the private key unwrapped.
 */
export const messagingKeys = pgTable(
  "messaging_keys",
  {
    id: integer("id").primaryKey().default(1),
    publicKey: text("public_key").notNull(),
    salt: text("salt").notNull(),
    iterations: integer("iterations").notNull(),
    byPassphrase: text("by_passphrase").notNull(),
    byRecovery: text("by_recovery").notNull(),
    version: integer("version").notNull().default(1),
    recoveryKept: boolean("recovery_kept").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check("messaging_keys_one_row", sql`${t.id} = 1`), check("messaging_keys_iterations_check", sql`${t.iterations} >= 600000`)],
);

/** How long an answer may take, per tier (issue 43; the operator's settings, one row): Architect 24 h, Mastermind 12 h. */
export const messagingSettings = pgTable(
  "messaging_settings",
  {
    id: integer("id").primaryKey().default(1),
    architectHours: integer("architect_hours").notNull().default(24),
    mastermindHours: integer("mastermind_hours").notNull().default(12),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("messaging_settings_one_row", sql`${t.id} = 1`),
    check("messaging_settings_hours_check", sql`${t.architectHours} BETWEEN 1 AND 720 AND ${t.mastermindHours} BETWEEN 1 AND 720`),
  ],
);

/**
 * One conversation per access code with the operator (issue 43). `dueAt`: when an answer is due
 * for the oldest member message not yet answered (null: none waiting); `settled`: how the last
 * wait ended ('answered', or 'no_reply' when the operator marked it needing none).
 */
export const conversations = pgTable(
  "conversations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    accessCodeId: integer("access_code_id")
      .notNull()
      .unique()
      .references(() => accessCodes.id, { onDelete: "cascade" }),
    waitingSince: timestamp("waiting_since", { withTimezone: true }),
    dueAt: timestamp("due_at", { withTimezone: true }),
    settled: text("settled"),
    lastMessageAt: timestamp("last_message_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [check("conversations_settled_check", sql.raw("settled IS NULL OR settled IN ('answered', 'no_reply')")), index("conversations_due_idx").on(t.dueAt)],
);

/**
 * A message of a conversation (issue 43): sealed in the sender's browser under the conversation
 * key (ECDH of the member's and the operator's keys, named here by their public keys), with its
 * conversation, sender and sequence as additional data. The server keeps ciphertext, never words.
 * A task (`kind`) has an optional due day and is marked done by the member; an answer to a task
 * names it (`answerTo`). `readAt`: when the other side first showed it.
 */
export const messages = pgTable(
  "messages",
  {
    conversationId: uuid("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    sequence: integer("sequence").notNull(),
    sender: text("sender").notNull(),
    kind: text("kind").notNull().default("message"),
    memberKey: text("member_key").notNull(),
    operatorKey: text("operator_key").notNull(),
    iv: text("iv").notNull(),
    ciphertext: text("ciphertext").notNull(),
    taskDue: timestamp("task_due", { withTimezone: true }),
    taskDoneAt: timestamp("task_done_at", { withTimezone: true }),
    answerTo: integer("answer_to"),
    readAt: timestamp("read_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.conversationId, t.sequence] }),
    check("messages_sender_check", sql.raw("sender IN ('member', 'operator')")),
    check("messages_kind_check", sql.raw("kind IN ('message', 'task')")),
    check("messages_sequence_check", sql`${t.sequence} >= 1`),
  ],
);
