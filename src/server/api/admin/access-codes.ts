/**
 * Access codes from the admin panel (beyond the spec: the operator enrols clients here).
 *   GET  /api/admin/access-codes                          [{id, login, level, isActive, createdAt, usedAt}]
 *   POST /api/admin/access-codes {level, login?}          201 {login, password, level}; the password is shown once
 *   PUT  /api/admin/access-codes/{login}/active {active}  200 the code; deactivating ends its sessions
 *   POST /api/admin/access-codes/{login}/reset-password   200 {login, password, level}; ends its sessions
 */
import { z } from "../../../lib/zod.ts";
import { accessCodeInput } from "../../../lib/content-schemas.ts";
import { requireAdmin } from "../../access/admin.ts";
import { database } from "../../db/index.ts";
import { notFound } from "../../http/errors.ts";
import { readJson, requireSameSite } from "../../http/request.ts";
import { json, route } from "../../http/respond.ts";
import {
  issueAccessCode,
  listAccessCodes,
  LOGIN_PATTERN,
  resetAccessCodePassword,
  setAccessCodeActive,
} from "../../repositories/access-codes.ts";

const activeBody = z.object({ active: z.boolean({ error: "must be true or false" }) });

const knownLogin = (login: string) => {
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
    const { level, login } = await readJson(request, accessCodeInput, 4 * 1024);
    const code = await issueAccessCode(await database(), { level, login: login || undefined });
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
    requireSameSite(request);
    return json(await resetAccessCodePassword(await database(), knownLogin(login)));
  },
});
