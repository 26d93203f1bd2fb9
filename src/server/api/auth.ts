/** Reader sign-in (SPEC.md section 7): validate an access code, report the session, log out. */
import { z } from "../../lib/zod.ts";
import { clientAddress, readJson } from "../http/request.ts";
import { json, route } from "../http/respond.ts";
import { database } from "../db/index.ts";
import { checkLogin } from "../auth/login.ts";
import { endSession, issueSessionWhile, readerSession, verifiedSid } from "../auth/session.ts";
import { sessionEnding } from "../auth/session-endings.ts";
import { clearedCookies, hasReaderCookies, sessionEndedCookie, signedInCookie } from "../auth/cookies.ts";
import { accessCodeSignedIn, findAccessCode, hasExpired } from "../repositories/access-codes.ts";
import { HttpError } from "../http/errors.ts";
import { levelOf } from "../../lib/levels.ts";
import { noteChapters, notebookWindowClosed } from "../notebook/notebook.ts";
import { unreadByMember } from "../messages/direct-line.ts";

const loginBody = z.object({
  login: z.string().trim().min(1, "is required").max(100, "is too long"),
  password: z.string().min(1, "is required").max(200, "is too long"),
});

export const FAILED_LOGIN_MESSAGE = "Invalid access code or password.";

export const EXPIRED_CODE_MESSAGE = "This access code has expired. Contact support to renew your access.";

export const INACTIVE_CODE_MESSAGE = "This access code is no longer active. Contact support if you think this is a mistake.";

/**
 * POST /api/auth/validate {login, password}: 200 {level} with the session cookie, or 401 / 429;
 * for the right password of a code that has ended (told only to whoever knows the password, issue
 * 44: 6), 403 `access_code_expired` (past its end date) or `access_code_inactive` (deactivated by
 * the operator), with `notebookKept`: whether its notebook can still be downloaded. A sign-in
 * beyond the code's session cap ends its oldest session.
 */
export const validate = route({
  POST: async (request) => {
    const { login, password } = await readJson(request, loginBody);
    const db = await database();
    const now = new Date();
    const { account: code, settle } = await checkLogin(
      db,
      "reader",
      { account: login.toLowerCase(), password, address: clientAddress(request) },
      async () => {
        const row = await findAccessCode(db, login);
        // (A deactivated code's right password is told so, below; its attempts count as failures.)
        return row && { ...row, passwordHash: row.password, enabled: true };
      },
      FAILED_LOGIN_MESSAGE,
    );
    const ended = code.isActive !== "true" ? (["access_code_inactive", INACTIVE_CODE_MESSAGE] as const) : hasExpired(code, now) ? (["access_code_expired", EXPIRED_CODE_MESSAGE] as const) : null;
    if (ended) throw new HttpError(403, ended[0], ended[1], {}, { notebookKept: !notebookWindowClosed(code, now) });
    // Only while the code is as it was verified: a reset or a deactivation meanwhile wins.
    const session = await issueSessionWhile(db, "reader", { accessCodeId: code.id }, accessCodeSignedIn(code, now), now, settle);
    if (!session) throw new HttpError(401, "invalid_credentials", FAILED_LOGIN_MESSAGE);
    return json({ level: levelOf(code.level) }, { cookies: session.cookies });
  },
});

/**
 * GET /api/auth/session: {authenticated, level} as the server sees the cookie. The page script
 * asks only while the browser holds the readable "signed in" cookie or a stored signed-in state
 * (issue 20), so the answer keeps that cookie in step: renewed for the session's remaining life
 * (a session from before the cookie existed gets it here), cleared with the session cookie when
 * the session has ended (signed out elsewhere, expired, its code ended); when it ended because its
 * code signed in on another device beyond its cap, with the cookie that tells /resume so.
 */
export const session = route({
  GET: async (request) => {
    const now = new Date();
    const db = await database();
    const current = await readerSession(db, request, now);
    if (current) {
      const cookies = [signedInCookie(Math.max(1, Math.floor((current.expire.getTime() - now.getTime()) / 1000)))];
      // The chapters holding the member's notes: their pages load the notebook once idle (issue 32).
      // The operator's replies not yet read: the header's and the profile's mark (issue 43), on the answer every page already asks for.
      const [chapters, unread] = [await noteChapters(db, current), await unreadByMember(db, current.accessCodeId)];
      return json({ authenticated: true, level: current.level, noteChapters: chapters, unreadMessages: unread }, { cookies });
    }
    if (!hasReaderCookies(request)) return json({ authenticated: false, level: null });
    // Ended: its cookies cleared, and, when its code signed in on another device, a word for /resume.
    const sid = await verifiedSid(request, "reader", now);
    const ending = sid ? await sessionEnding(db, sid) : null;
    const cookies = [...clearedCookies("reader"), ...(ending ? [sessionEndedCookie(ending)] : [])];
    return json({ authenticated: false, level: null }, { cookies });
  },
});

/** POST /api/auth/logout: revokes the session and clears the cookie. */
export const logout = route({
  POST: async (request) => {
    return json({ authenticated: false }, { cookies: await endSession(await database(), request, "reader") });
  },
});
