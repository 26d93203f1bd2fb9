/**
 * Access codes (issue 6, beyond the spec): the list, issuing a code for a level, deactivating and
 * reactivating, resetting a password, and (issue 14) its end date, its cap on sessions at once and
 * ending all its sessions. A password is in the answer of an issue or a reset only,
 * and the panel shows it once.
 */
import { atom } from "nanostores";
import { apiRequest, errorMessage } from "../lib/api-client.ts";
import type { Level } from "../lib/levels.ts";
import { notify } from "../lib/notify.ts";
import { isSignedOutError, type AccessCodeEntry, type AccessCodeLimitsPayload, type IssuedCode } from "./admin-api.ts";
import { sessionEnded } from "./admin-session.ts";

export const $accessCodes = atom<AccessCodeEntry[]>([]);
export const $accessCodesError = atom<string | null>(null);
/** Whether the list has been asked for and answered (or failed) once: until then the tab shows a skeleton. */
export const $accessCodesLoaded = atom(false);

function failure(error: unknown, description: string): void {
  if (isSignedOutError(error)) return sessionEnded();
  notify({ title: "Error", description, variant: "destructive" });
}

export async function loadAccessCodes(): Promise<void> {
  try {
    $accessCodes.set(await apiRequest<AccessCodeEntry[]>("GET", "/api/admin/access-codes"));
    $accessCodesError.set(null);
  } catch (error) {
    if (isSignedOutError(error)) return sessionEnded();
    $accessCodesError.set(errorMessage(error));
  } finally {
    $accessCodesLoaded.set(true);
  }
}

/** Issues a code; answers the login and password (to be shown once), or null on failure. */
export async function issueAccessCode(level: Level, login: string, limits: AccessCodeLimitsPayload): Promise<IssuedCode | null> {
  try {
    const issued = await apiRequest<IssuedCode>("POST", "/api/admin/access-codes", login ? { level, login, ...limits } : { level, ...limits });
    notify({ title: "Success", description: `Access code issued for ${issued.level}` });
    await loadAccessCodes();
    return issued;
  } catch (error) {
    failure(error, `Failed to issue access code: ${errorMessage(error)}`);
    return null;
  }
}

export async function setAccessCodeActive(login: string, active: boolean): Promise<void> {
  try {
    await apiRequest("PUT", `/api/admin/access-codes/${encodeURIComponent(login)}/active`, { active });
    notify({ title: "Success", description: active ? `Access code ${login} reactivated` : `Access code ${login} deactivated` });
  } catch (error) {
    failure(error, `Failed to ${active ? "reactivate" : "deactivate"} access code: ${errorMessage(error)}`);
  }
  await loadAccessCodes();
}

/** Gives a code a new password; answers it (to be shown once), or null on failure. */
export async function resetAccessCodePassword(login: string): Promise<IssuedCode | null> {
  try {
    const issued = await apiRequest<IssuedCode>("POST", `/api/admin/access-codes/${encodeURIComponent(login)}/reset-password`);
    notify({ title: "Success", description: `New password set for ${login}` });
    await loadAccessCodes();
    return issued;
  } catch (error) {
    failure(error, `Failed to reset password: ${errorMessage(error)}`);
    return null;
  }
}

/** Saves a code's end date and session cap; answers whether it succeeded. */
export async function setAccessCodeLimits(login: string, limits: Partial<AccessCodeLimitsPayload>): Promise<boolean> {
  try {
    await apiRequest("PUT", `/api/admin/access-codes/${encodeURIComponent(login)}/settings`, limits);
    notify({ title: "Success", description: `Settings of ${login} saved` });
    await loadAccessCodes();
    return true;
  } catch (error) {
    failure(error, `Failed to save settings: ${errorMessage(error)}`);
    return false;
  }
}

/** Ends every session of a code: its readers must sign in again. */
export async function endAccessCodeSessions(login: string): Promise<void> {
  try {
    const { ended } = await apiRequest<{ ended: number }>("POST", `/api/admin/access-codes/${encodeURIComponent(login)}/end-sessions`);
    notify({ title: "Success", description: `Ended ${ended} session${ended === 1 ? "" : "s"} of ${login}` });
  } catch (error) {
    failure(error, `Failed to end sessions: ${errorMessage(error)}`);
  }
  await loadAccessCodes();
}
