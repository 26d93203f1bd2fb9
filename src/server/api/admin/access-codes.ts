/**
 * Access codes from the admin panel (beyond the spec: the operator enrolls clients here).
 *   GET  /api/admin/access-codes                          [{id, login, level, isActive, createdAt, usedAt, expiresAt,
 *                                                          expired, maxSessions, activeSessions, lastUsedAt}]
 *   POST /api/admin/access-codes {level, login?, expiresAt?, maxSessions?}
 *                                                         201 {login, password, level, expiresAt, maxSessions}; the password is shown once;
 *                                                         400 for Operator (open to everyone: codes are for the locked levels)
 *   PUT  /api/admin/access-codes/{login}/active {active}  200 the code; deactivating ends its sessions
 *   POST /api/admin/access-codes/{login}/reset-password   200 {login, password, level}; ends its sessions
 *   PUT  /api/admin/access-codes/{login}/settings {expiresAt?, maxSessions?}
 *                                                         200 the code; a lower cap ends the oldest sessions beyond it
 *   POST /api/admin/access-codes/{login}/end-sessions     200 {login, ended}
 */
import { z } from "../../../lib/zod.ts";
import { accessCodeInput, accessCodeLimits } from "../../../lib/content-schemas.ts";
import { requireAdmin } from "../../access/admin.ts";
import { database } from "../../db/index.ts";
import { notFound } from "../../http/errors.ts";
import { readJson } from "../../http/request.ts";
import { json, route } from "../../http/respond.ts";
import {
  endAccessCodeSessions,
  issueAccessCode,
  listAccessCodes,
  LOGIN_PATTERN,
  resetAccessCodePassword,
  setAccessCodeActive,
  setAccessCodeLimits,
} from "../../repositories/access-codes.ts";

const activeBody = z.object({ active: z.boolean({ error: "must be true or false" }) });

const dateOf = (value: string | null | undefined) => (value === undefined ? undefined : value === null ? null : new Date(value));

/** The login in an address, checked: one that cannot be a code is 404 before any query. */
export const knownLogin = (login: string) => {
  if (!LOGIN_PATTERN.test(login)) throw notFound(`No access code "${login.slice(0, 64)}".`);
  return login;
};

export const adminAccessCodes = route({
  GET: async (request) => {
    await requireAdmin(request);
    return json(await listAccessCodes(await database()));
  },
  POST: async (request) => {
    await requireAdmin(request);
    const { level, login, expiresAt, maxSessions } = await readJson(request, accessCodeInput, 4 * 1024);
    const code = await issueAccessCode(await database(), { level, login: login || undefined, expiresAt: dateOf(expiresAt), maxSessions });
    return json(code, { status: 201 });
  },
});

export const adminAccessCodeActive = route<[login: string]>({
  PUT: async (request, login) => {
    await requireAdmin(request);
    const { active } = await readJson(request, activeBody, 1024);
    return json(await setAccessCodeActive(await database(), knownLogin(login), active));
  },
});

export const adminAccessCodeReset = route<[login: string]>({
  POST: async (request, login) => {
    await requireAdmin(request);
    return json(await resetAccessCodePassword(await database(), knownLogin(login)));
  },
});

export const adminAccessCodeSettings = route<[login: string]>({
  PUT: async (request, login) => {
    await requireAdmin(request);
    const { expiresAt, maxSessions } = await readJson(request, accessCodeLimits, 1024);
    return json(await setAccessCodeLimits(await database(), knownLogin(login), { expiresAt: dateOf(expiresAt), maxSessions }));
  },
});

export const adminAccessCodeEndSessions = route<[login: string]>({
  POST: async (request, login) => {
    await requireAdmin(request);
    return json(await endAccessCodeSessions(await database(), knownLogin(login)));
  },
});
