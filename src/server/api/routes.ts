/**
 * Every API address in one route table (DESIGN.md section 4): the one API function
 * (netlify/functions/api.ts) answers every `/api/*` request and every stored photo through it,
 * so a member's visit wakes one warm instance instead of a cold start per endpoint; the local
 * host reaches it the same way, through that function's `config.path`.
 *
 * Plain URLPattern (the web standard Netlify's `config.path` itself uses), not a router package:
 * the handlers already take a web Request and answer a Response (`route` in http/respond.ts), so
 * a table of patterns is all the dispatch there is. Literal addresses are looked up in a map;
 * the rest are tried in the table's order (more specific first). Only the image upload stands
 * apart, in its own function (netlify/functions/upload.ts): the image library it needs is 9 MB.
 */
import { errorBody, json, toErrorResponse } from "../http/respond.ts";
import { completeScan, saveScanResponse, scanResult, startScan } from "./assessment.ts";
import { logout, session, validate } from "./auth.ts";
import { chapterBySlug, chapterList, chapterSubsections } from "./chapters.ts";
import { health } from "./health.ts";
import { servePhoto } from "./photos.ts";
import { heartbeat, place, profileStats } from "./reading.ts";
import { notebook, notebookExportRoute, notebookNote, notebookNotes, notebookRecovery } from "./notebook.ts";
import { search } from "./search.ts";
import { memberConversationStart, memberMessageKeys, memberMessages, memberMessagesRead, memberPassage, memberTaskDone } from "./messages.ts";
import {
  adminConversationMessages,
  adminConversationNoReply,
  adminConversationOne,
  adminConversationRead,
  adminConversations,
  adminMessagingKey,
  adminMessagingSettings,
} from "./admin/messages.ts";
import {
  adminAccessCodeActive,
  adminAccessCodeEndSessions,
  adminAccessCodeReset,
  adminAccessCodes,
  adminAccessCodeSettings,
} from "./admin/access-codes.ts";
import { adminLogin, adminLogout, adminSessionState, adminSetup } from "./admin/auth.ts";
import { adminChapter, adminChapterRestore, adminChapters, adminChapterSubsections, adminDeletedChapters } from "./admin/chapters.ts";
import { adminDiscardDraft, adminPublishDraft, adminScheduleDraft } from "./admin/drafts.ts";
import { adminPublish } from "./admin/publish.ts";
import { adminEraseReading, adminReaders, adminReadersCsv } from "./admin/readers.ts";
import { adminRevisionRestore, adminRevisions } from "./admin/revisions.ts";
import { adminScanFunnel, adminSubmissions, adminSubmissionsCsv } from "./admin/submissions.ts";
import { adminDeletedSubsections, adminSubsection, adminSubsectionRestore, adminSubsections } from "./admin/subsections.ts";
import { adminWebhook, adminWebhookDeliveries, adminWebhookResend, adminWebhooks, adminWebhookTest } from "./admin/webhooks.ts";

type Params = Record<string, string>;
type Handler = (request: Request, params: Params) => Promise<Response>;

/** The address the image upload keeps in a function of its own (netlify/functions/upload.ts). */
export const UPLOAD_PATH = "/api/upload";

/**
 * Every address the API function answers, in the order they are tried: a pattern (URLPattern
 * pathname syntax, `:name` one segment) and its handler, given the decoded parameters.
 */
export const API_ROUTES: ReadonlyArray<readonly [pattern: string, handler: Handler]> = [
  // Readers
  ["/api/health", (request) => health(request)],
  ["/api/chapters", (request) => chapterList(request)],
  ["/api/chapters/:chapterId/subsections", (request, p) => chapterSubsections(request, p.chapterId!)],
  ["/api/chapters/:slug", (request, p) => chapterBySlug(request, p.slug!)],
  ["/api/search", (request) => search(request)],
  ["/api/auth/validate", (request) => validate(request)],
  ["/api/auth/session", (request) => session(request)],
  ["/api/auth/logout", (request) => logout(request)],
  ["/api/reading/heartbeat", (request) => heartbeat(request)],
  ["/api/reading/place", (request) => place(request)],
  ["/api/profile/stats", (request) => profileStats(request)],
  // The members' notebook (issue 32)
  ["/api/notebook", (request) => notebook(request)],
  ["/api/notebook/recovery", (request) => notebookRecovery(request)],
  ["/api/notebook/notes", (request) => notebookNotes(request)],
  ["/api/notebook/notes/:subsectionId", (request, p) => notebookNote(request, p.subsectionId!)],
  ["/api/notebook/export", (request) => notebookExportRoute(request)],
  // The direct line (issue 43)
  ["/api/messages", (request) => memberMessages(request)],
  ["/api/messages/keys", (request) => memberMessageKeys(request)],
  ["/api/messages/conversation", (request) => memberConversationStart(request)],
  ["/api/messages/read", (request) => memberMessagesRead(request)],
  ["/api/messages/tasks/:sequence/done", (request, p) => memberTaskDone(request, p.sequence!)],
  ["/api/messages/passage/:subsectionId", (request, p) => memberPassage(request, p.subsectionId!)],
  ["/uploads/:name", (request, p) => servePhoto(request, p.name!)],
  // The scan
  ["/api/assessment/session", (request) => startScan(request)],
  ["/api/assessment/session/:id/complete", (request, p) => completeScan(request, p.id!)],
  ["/api/assessment/response", (request) => saveScanResponse(request)],
  ["/api/assessment/result/:token", (request, p) => scanResult(request, p.token!)],
  // The admin panel: its session
  ["/api/admin/login", (request) => adminLogin(request)],
  ["/api/admin/logout", (request) => adminLogout(request)],
  ["/api/admin/session", (request) => adminSessionState(request)],
  ["/api/admin/setup", (request) => adminSetup(request)],
  // Content
  ["/api/admin/chapters", (request) => adminChapters(request)],
  ["/api/admin/chapters/deleted/recent", (request) => adminDeletedChapters(request)],
  ["/api/admin/chapters/:id", (request, p) => adminChapter(request, p.id!)],
  ["/api/admin/chapters/:id/restore", (request, p) => adminChapterRestore(request, p.id!)],
  ["/api/admin/chapters/:id/subsections", (request, p) => adminChapterSubsections(request, p.id!)],
  ["/api/admin/subsections", (request) => adminSubsections(request)],
  ["/api/admin/subsections/deleted/recent", (request) => adminDeletedSubsections(request)],
  ["/api/admin/subsections/:id", (request, p) => adminSubsection(request, p.id!)],
  ["/api/admin/subsections/:id/restore", (request, p) => adminSubsectionRestore(request, p.id!)],
  ["/api/admin/revisions/:id/restore", (request, p) => adminRevisionRestore(request, p.id!)],
  ["/api/admin/:kind/:id/revisions", (request, p) => adminRevisions(request, p.kind!, p.id!)],
  ["/api/admin/:kind/:id/draft", (request, p) => adminDiscardDraft(request, p.kind!, p.id!)],
  ["/api/admin/:kind/:id/publish", (request, p) => adminPublishDraft(request, p.kind!, p.id!)],
  ["/api/admin/:kind/:id/schedule", (request, p) => adminScheduleDraft(request, p.kind!, p.id!)],
  ["/api/admin/publish", (request) => adminPublish(request)],
  // Submissions, access codes, webhooks
  ["/api/admin/assessment/sessions", (request) => adminSubmissions(request)],
  ["/api/admin/assessment/sessions.csv", (request) => adminSubmissionsCsv(request)],
  ["/api/admin/assessment/funnel", (request) => adminScanFunnel(request)],
  ["/api/admin/access-codes", (request) => adminAccessCodes(request)],
  ["/api/admin/access-codes/:login/active", (request, p) => adminAccessCodeActive(request, p.login!)],
  ["/api/admin/access-codes/:login/reset-password", (request, p) => adminAccessCodeReset(request, p.login!)],
  ["/api/admin/access-codes/:login/settings", (request, p) => adminAccessCodeSettings(request, p.login!)],
  ["/api/admin/access-codes/:login/end-sessions", (request, p) => adminAccessCodeEndSessions(request, p.login!)],
  ["/api/admin/access-codes/:login/reading", (request, p) => adminEraseReading(request, p.login!)],
  ["/api/admin/readers", (request) => adminReaders(request)],
  ["/api/admin/readers.csv", (request) => adminReadersCsv(request)],
  ["/api/admin/messaging-key", (request) => adminMessagingKey(request)],
  ["/api/admin/messaging-settings", (request) => adminMessagingSettings(request)],
  ["/api/admin/conversations", (request) => adminConversations(request)],
  ["/api/admin/conversations/:id", (request, p) => adminConversationOne(request, p.id!)],
  ["/api/admin/conversations/:id/messages", (request, p) => adminConversationMessages(request, p.id!)],
  ["/api/admin/conversations/:id/read", (request, p) => adminConversationRead(request, p.id!)],
  ["/api/admin/conversations/:id/no-reply", (request, p) => adminConversationNoReply(request, p.id!)],
  ["/api/admin/webhooks", (request) => adminWebhooks(request)],
  ["/api/admin/webhooks/:id", (request, p) => adminWebhook(request, p.id!)],
  ["/api/admin/webhooks/:id/test", (request, p) => adminWebhookTest(request, p.id!)],
  ["/api/admin/webhook-deliveries", (request) => adminWebhookDeliveries(request)],
  ["/api/admin/webhook-deliveries/:id/resend", (request, p) => adminWebhookResend(request, p.id!)],
];

/**
 * A dispatcher over `routes`: the route's handler, a JSON 400 for an address that is not valid
 * percent-encoding, a JSON 404 for an address no route holds, and the JSON error shape for
 * anything a handler throws (never the platform's plain-text 500).
 */
export function apiDispatcher(routes: typeof API_ROUTES): (request: Request) => Promise<Response> {
  const literal = new Map<string, Handler>();
  const patterned: Array<{ pattern: URLPattern; handler: Handler }> = [];
  for (const [pathname, handler] of routes) {
    if (pathname.includes(":")) patterned.push({ pattern: new URLPattern({ pathname }), handler });
    else literal.set(pathname, handler);
  }
  const answer = (request: Request): Promise<Response> | Response => {
    const { pathname } = new URL(request.url);
    const exact = literal.get(pathname);
    if (exact) return exact(request, {});
    for (const { pattern, handler } of patterned) {
      const match = pattern.exec({ pathname });
      if (!match) continue;
      const params = decoded(match.pathname.groups);
      if (!params) return json(errorBody("bad_request", "The address is not valid: a part of it is wrongly percent-encoded."), { status: 400 });
      return handler(request, params);
    }
    return json(errorBody("not_found", `There is no API at ${pathname}.`), { status: 404 });
  };
  return async (request) => {
    try {
      return await answer(request);
    } catch (error) {
      return toErrorResponse(error);
    }
  };
}

/** A path's parameters as text, or null when one is not valid percent-encoding. */
function decoded(groups: Record<string, string | undefined>): Params | null {
  try {
    return Object.fromEntries(Object.entries(groups).map(([name, value]) => [name, decodeURIComponent(value ?? "")]));
  } catch {
    return null;
  }
}

/** Answers an API request from the table (`apiDispatcher`). */
export const dispatchApi = apiDispatcher(API_ROUTES);
