/**
 * The admin API's shapes (src/server/api/admin/README.md) and the few helpers the admin stores
 * share. Every call goes through `apiRequest`, so a failure is an ApiError "{status}: {text}",
 * already logged when it was a mutation.
 */
import type { BodySubsection } from "../lib/chapter-body.ts";
import { ApiError } from "../lib/api-client.ts";
import type { Level } from "../lib/levels.ts";

export interface AdminChapter {
  id: number;
  slug: string;
  title: string;
  content: string;
  readingTime: number;
  order: number;
  level: Level | null;
  /** A locked chapter's optional words for readers without access (issue 15). */
  teaser: string | null;
  createdAt: string;
  updatedAt: string;
  /** Issue 14: a draft is kept from readers; `draft` is a published item's pending edit. */
  status?: "published" | "draft";
  updatedBy?: string | null;
  draft?: Partial<ChapterPayload> | null;
  draftSavedAt?: string | null;
  draftSavedBy?: string | null;
  publishAt?: string | null;
}

export interface AdminSubsection extends BodySubsection {
  chapterId: number;
  createdAt: string;
  updatedAt: string;
  status?: "published" | "draft";
  updatedBy?: string | null;
  draft?: Partial<SubsectionPayload> | null;
  draftSavedAt?: string | null;
  draftSavedBy?: string | null;
  publishAt?: string | null;
}

/** How a save is made (issue 14): as a draft, and when to publish it. Absent: published at once. */
export interface SaveOptions {
  draft?: boolean;
  publishAt?: string | null;
}

export type ItemKind = "chapter" | "subsection";

/** A kept version (GET /api/admin/{kind}/{id}/revisions). */
export interface Revision {
  id: number;
  kind: ItemKind;
  itemId: number;
  fields: Record<string, string | number | null>;
  savedAt: string;
  savedBy: string | null;
  replacedAt: string;
  replacedBy: string | null;
}

export interface DeletedChapter extends AdminChapter {
  deletedAt: string;
}

export interface DeletedSubsection extends AdminSubsection {
  deletedAt: string;
  chapterTitle: string;
}

export interface ChapterPayload {
  slug: string;
  title: string;
  content: string;
  readingTime: number;
  order: number;
  level: Level;
}

export interface SubsectionPayload {
  chapterId: number;
  title: string;
  content: string;
  photo: string | null;
  photoAlt: string | null;
  order: number;
  slug?: string;
}

export interface Submission {
  id: string;
  name: string | null;
  email: string | null;
  score: number | null;
  scoreBreakdown: { level: string; totalScore: number; categoryScores: Record<string, number> } | null;
  completed: "true" | "false";
  /** With today's wording of the question and of the chosen option (null if the content no longer has it). */
  responses: { id: number; questionNumber: number; answer: string; questionText: string | null; answerText: string | null }[];
  startedAt: string;
  completedAt: string | null;
}

/** A page of GET /api/admin/assessment/sessions. */
export interface SubmissionsPage {
  submissions: Submission[];
  /** With the list's filter. */
  total: number;
  /** Every scan session. */
  all: number;
  nextCursor: string | null;
}

export interface AccessCodeEntry {
  id: number;
  login: string;
  level: Level;
  isActive: string | boolean;
  createdAt: string;
  usedAt: string | null;
  expiresAt: string | null;
  expired: boolean;
  maxSessions: number;
  activeSessions: number;
  lastUsedAt: string | null;
  /** How many notes the member's notebook holds (never their text), or null without one (issue 32). */
  notebookNotes: number | null;
}

/** An access code's limits as the API takes them (src/lib/content-schemas.ts accessCodeLimits). */
export interface AccessCodeLimitsPayload {
  expiresAt: string | null;
  maxSessions: number;
}

export interface IssuedCode {
  login: string;
  password: string;
  level: Level;
}

export interface PublishStatus {
  state: "live" | "publishing" | "failed";
  lastPublishedAt: string | null;
  error: string | null;
  pending: boolean;
  /** The CDN purges (src/server/publish/cache-purge.ts): a failed one is tried again until done. */
  cachePurge?: {
    state: "done" | "pending" | "failed";
    since: string | null;
    attempts: number;
    lastError: string | null;
    nextAttemptAt: string | null;
    doneAt: string | null;
  };
  /**
   * Whether the static search index holds the open level's current text (`asOf`: the text it holds
   * is of then); `withdrawn`: how many open chapters' earlier text its public files still hold;
   * `exposed`: such text is there and no build is coming to replace it (src/server/publish/state.ts).
   */
  searchIndex?: { state: "current" | "updating" | "outdated"; asOf: string | null; withdrawn?: number; exposed?: boolean };
}

/** Whether an error means the admin session is gone (expired or signed out elsewhere). */
export function isSignedOutError(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401;
}

/** An access code's `isActive` is stored as text ("true"/"false"); accept a boolean too. */
export function isActiveCode(code: AccessCodeEntry): boolean {
  return code.isActive === true || code.isActive === "true";
}
