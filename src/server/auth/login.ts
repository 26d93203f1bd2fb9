/**
 * Checking a login attempt. A wrong login and a wrong password give the same answer after the same
 * work (one scrypt verification either way). Failures are counted per login and per client
 * address in the database; 5 within 15 minutes lock further attempts out with 429.
 */
import type { Database } from "../db/client.ts";
import { HttpError } from "../http/errors.ts";
import { assertUnderLimit, clearHits, recordHit, systemClock, type Clock, type Limit } from "../access/rate-limit.ts";
import { DUMMY_HASH, verifyPassword } from "./password.ts";

export const LOGIN_FAILURE_LIMIT = 5;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;

export function loginLimits(scope: string): { byAccount: Limit; byAddress: Limit } {
  return {
    byAccount: { bucket: `${scope}-login-account`, max: LOGIN_FAILURE_LIMIT, windowMs: LOGIN_WINDOW_MS },
    byAddress: { bucket: `${scope}-login-address`, max: LOGIN_FAILURE_LIMIT, windowMs: LOGIN_WINDOW_MS },
  };
}

export interface Credentials {
  /** The account's key for rate limiting (a normalised login or email). */
  account: string;
  password: string;
  address: string;
}

/**
 * Verifies `password` against the stored hash `find` answers (or a dummy hash when it answers
 * none, or the account is disabled). Throws 429 when locked out, 401 on failure; answers the
 * account on success.
 */
export async function checkLogin<T extends { passwordHash: string; enabled: boolean }>(
  db: Database,
  scope: string,
  credentials: Credentials,
  find: () => Promise<T | undefined>,
  failureMessage: string,
  clock: Clock = systemClock,
): Promise<T> {
  const { byAccount, byAddress } = loginLimits(scope);
  const now = clock();
  await assertUnderLimit(db, byAddress, credentials.address, now);
  await assertUnderLimit(db, byAccount, credentials.account, now);
  const account = await find();
  const matches = await verifyPassword(credentials.password, account?.passwordHash ?? DUMMY_HASH);
  if (!account || !account.enabled || !matches) {
    await recordHit(db, byAddress, credentials.address, now);
    await recordHit(db, byAccount, credentials.account, now);
    throw new HttpError(401, "invalid_credentials", failureMessage);
  }
  await clearHits(db, byAccount, credentials.account);
  return account;
}
