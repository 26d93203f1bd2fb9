/**
 * The one-time link that creates the first admin in the browser (issue 6). While no admin exists,
 * each server start makes a new token (replacing any earlier one) and prints
 * http://HOST/admin?setup=TOKEN. Only a SHA-256 of the token is stored, with an expiry; redeeming
 * it creates the admin and deletes every token, and no token works once an admin exists.
 */
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt } from "../db/orm.ts";
import type { Database } from "../db/types.ts";
import { adminAccounts, adminSetupTokens } from "../db/schema.ts";
import { HttpError } from "../http/errors.ts";
import { hashPassword } from "../auth/password.ts";
import { adminExists, normaliseEmail, type AdminAccountView } from "./accounts.ts";

export const SETUP_TOKEN_TTL_MS = 24 * 3600 * 1000;

const digest = (token: string) => createHash("sha256").update(token).digest("hex");

/** A fresh setup token, or null when an admin already exists (no link is needed then). */
export async function issueSetupToken(db: Database, now = new Date()): Promise<string | null> {
  if (await adminExists(db)) return null;
  const token = randomBytes(32).toString("base64url");
  await db.transaction(async (tx) => {
    await tx.delete(adminSetupTokens);
    await tx.insert(adminSetupTokens).values({ tokenHash: digest(token), expiresAt: new Date(now.getTime() + SETUP_TOKEN_TTL_MS) });
  });
  return token;
}

/** Whether the setup link is still needed: no admin exists yet. */
export async function setupRequired(db: Database): Promise<boolean> {
  return !(await adminExists(db));
}

export const SETUP_REFUSED_ADMIN_EXISTS =
  "An admin account already exists, so the setup link no longer works. Sign in instead, or create another admin with `npm run admin -- create`.";
export const SETUP_REFUSED_TOKEN =
  "This setup link is wrong or has expired. Restart the server to print a new one, or create the admin with `npm run admin -- create`.";

/**
 * Creates the first admin with a valid token, in one transaction: the token is consumed (so two
 * tabs cannot both use it) and refused when any admin exists. 403 otherwise, checked before the
 * password is hashed (and again inside the transaction).
 */
export async function redeemSetupToken(
  db: Database,
  token: string,
  account: { email: string; password: string },
  now = new Date(),
): Promise<AdminAccountView> {
  // The token first: hashing a password costs time, and a wrong token never gets that far.
  if (await adminExists(db)) throw new HttpError(403, "setup_closed", SETUP_REFUSED_ADMIN_EXISTS);
  const valid = and(eq(adminSetupTokens.tokenHash, digest(token)), gt(adminSetupTokens.expiresAt, now));
  const [known] = await db.select({ tokenHash: adminSetupTokens.tokenHash }).from(adminSetupTokens).where(valid);
  if (!known) throw new HttpError(403, "setup_token_invalid", SETUP_REFUSED_TOKEN);
  const passwordHash = await hashPassword(account.password);
  return db.transaction(async (tx) => {
    const [used] = await tx
      .delete(adminSetupTokens)
      .where(valid)
      .returning({ tokenHash: adminSetupTokens.tokenHash });
    if (await adminExists(tx as unknown as Database)) throw new HttpError(403, "setup_closed", SETUP_REFUSED_ADMIN_EXISTS);
    if (!used) throw new HttpError(403, "setup_token_invalid", SETUP_REFUSED_TOKEN);
    await tx.delete(adminSetupTokens);
    const [row] = await tx
      .insert(adminAccounts)
      .values({ email: normaliseEmail(account.email), passwordHash })
      .returning({ id: adminAccounts.id, email: adminAccounts.email });
    return row!;
  });
}
