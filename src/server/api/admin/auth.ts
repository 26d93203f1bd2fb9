/**
 * Admin sign-in (issue 6): a session of its own (cookie sb_admin), separate from readers'.
 *   POST /api/admin/login   {email, password}         200 {email} + cookie | 401 | 429
 *   POST /api/admin/logout                            200 {authenticated:false}, clears and revokes
 *   GET  /api/admin/session                           {authenticated, email, setupRequired}
 *   POST /api/admin/setup   {token, email, password}  200 {email} + cookie (first admin only) | 403
 * These four are the only /api/admin routes open without an admin session.
 */
import { adminLoginInput, adminSetupInput } from "../../../lib/content-schemas.ts";
import { adminSession, endSession, issueSession } from "../../auth/session.ts";
import { checkLogin, LOGIN_WINDOW_MS } from "../../auth/login.ts";
import { take, type Limit } from "../../access/rate-limit.ts";
import { database } from "../../db/index.ts";
import { clientAddress, readJson } from "../../http/request.ts";
import { json, route } from "../../http/respond.ts";
import { adminSignedInStatement, findAdminByEmail, normaliseEmail } from "../../admin/accounts.ts";
import { redeemSetupToken, setupRequired } from "../../admin/setup-token.ts";

export const FAILED_ADMIN_LOGIN_MESSAGE = "Invalid email or password.";

/** Setup attempts per client address: the link's token is long, but guessing still costs nothing. */
export const SETUP_LIMIT: Limit = { bucket: "admin-setup-address", max: 5, windowMs: LOGIN_WINDOW_MS };

/** POST /api/admin/login */
export const adminLogin = route({
  POST: async (request) => {
    const { email, password } = await readJson(request, adminLoginInput, 4 * 1024);
    const db = await database();
    const { account, settle } = await checkLogin(
      db,
      "admin",
      { account: normaliseEmail(email), password, address: clientAddress(request) },
      async () => {
        const row = await findAdminByEmail(db, email);
        return row && { ...row, enabled: true };
      },
      FAILED_ADMIN_LOGIN_MESSAGE,
    );
    const session = await issueSession(db, "admin", { adminId: account.id }, new Date(), [...settle, adminSignedInStatement(account.id)]);
    return json({ email: account.email }, { cookies: session.cookies });
  },
});

/** POST /api/admin/logout */
export const adminLogout = route({
  POST: async (request) => {
    return json({ authenticated: false }, { cookies: await endSession(await database(), request, "admin") });
  },
});

/** GET /api/admin/session */
export const adminSessionState = route({
  GET: async (request) => {
    const db = await database();
    const current = await adminSession(db, request);
    return json({
      authenticated: current !== null,
      email: current?.email ?? null,
      setupRequired: current ? false : await setupRequired(db),
    });
  },
});

/** POST /api/admin/setup */
export const adminSetup = route({
  POST: async (request) => {
    const { token, email, password } = await readJson(request, adminSetupInput, 4 * 1024);
    const db = await database();
    await take(db, SETUP_LIMIT, clientAddress(request));
    const account = await redeemSetupToken(db, token, { email, password });
    const session = await issueSession(db, "admin", { adminId: account.id }, new Date(), [adminSignedInStatement(account.id)]);
    return json({ email: account.email }, { cookies: session.cookies });
  },
});
