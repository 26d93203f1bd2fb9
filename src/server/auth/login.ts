/**
 * Checking a login attempt. A wrong login and a wrong password give the same answer after the same
 * work (one scrypt verification either way). Attempts are counted in the database before the
 * password is checked (access/rate-limit.ts: one statement counts and answers), so requests sent at
 * once cannot all get through:
 * - per client address: 5 failed attempts in 15 minutes, then 429 until the window ends (an
 *   address's successful logins are given back, so they never lock it);
 * - per account, from anywhere: 10 attempts in 15 minutes, then each further attempt waits a
 *   growing delay (1 s, 2 s, 4 s... at most a minute). Someone guessing from elsewhere slows the
 *   account down but cannot lock its owner out; a refused attempt does not count against the
 *   owner's address.
 */
import type { Database } from "../db/types.ts";
import type { SQL } from "../db/orm.ts";
import { HttpError } from "../http/errors.ts";
import {
  clearStatement,
  countGated,
  overLimit,
  refundAttempts,
  refundStatement,
  systemClock,
  tooSoon,
  type Clock,
  type Limit,
  type SlowedLimit,
} from "../access/rate-limit.ts";
import { DUMMY_HASH, verifyPassword } from "./password.ts";

export const LOGIN_FAILURE_LIMIT = 5;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const ACCOUNT_FREE_ATTEMPTS = 10;
export const ACCOUNT_MAX_DELAY_MS = 60 * 1000;

export function loginLimits(scope: string): { byAccount: SlowedLimit; byAddress: Limit } {
  return {
    byAccount: { bucket: `${scope}-login-account`, free: ACCOUNT_FREE_ATTEMPTS, windowMs: LOGIN_WINDOW_MS, maxDelayMs: ACCOUNT_MAX_DELAY_MS },
    byAddress: { bucket: `${scope}-login-address`, max: LOGIN_FAILURE_LIMIT, windowMs: LOGIN_WINDOW_MS },
  };
}

export interface Credentials {
  /** The account's key for rate limiting (a normalised login or email). */
  account: string;
  password: string;
  address: string;
}

export interface CheckedLogin<T> {
  account: T;
  /**
   * What a successful login settles in the limits (the address's attempt given back, the
   * account's forgotten): statements for the caller to run with its own writes, in one
   * statement (issueSession's `alsoWrite`).
   */
  settle: SQL[];
}

/**
 * Verifies `password` against the stored hash `find` answers (or a dummy hash when it answers
 * none, or the account is disabled). Throws 429 when limited, 401 on failure. Counting both keys
 * is one statement and `find` another; on success the caller runs `settle` with the session it
 * issues, so a login is three statements.
 */
export async function checkLogin<T extends { passwordHash: string; enabled: boolean }>(
  db: Database,
  scope: string,
  credentials: Credentials,
  find: () => Promise<T | undefined>,
  failureMessage: string,
  clock: Clock = systemClock,
): Promise<CheckedLogin<T>> {
  const { byAccount, byAddress } = loginLimits(scope);
  const now = clock();
  const address = { bucket: byAddress.bucket, key: credentials.address };
  const account = { bucket: byAccount.bucket, key: credentials.account };
  // The account is counted only for an attempt the address's limit lets through: it does not pay
  // for an address that is refused anyway.
  const [fromAddress, forAccount] = await countGated(db, LOGIN_WINDOW_MS, address, byAddress.max, account, now);
  const refusedHere = overLimit(byAddress, fromAddress, now);
  if (refusedHere || !forAccount) throw refusedHere!;
  const tooEarly = tooSoon(byAccount, forAccount, now);
  if (tooEarly) {
    await refundAttempts(db, [account, address]);
    throw tooEarly;
  }
  const found = await find();
  const matches = await verifyPassword(credentials.password, found?.passwordHash ?? DUMMY_HASH);
  if (!found || !found.enabled || !matches) throw new HttpError(401, "invalid_credentials", failureMessage);
  return { account: found, settle: [refundStatement(address.bucket, address.key), clearStatement(account.bucket, account.key)] };
}
