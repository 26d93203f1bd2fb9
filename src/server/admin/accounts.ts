/**
 * Admin accounts: an email and a scrypt-hashed password (src/server/auth/password.ts). Created
 * from the command line (`npm run admin -- create`) or once through the setup link.
 */
import { count, eq, sql, type SQL } from "../db/orm.ts";
import type { Database } from "../db/types.ts";
import { adminAccounts } from "../db/schema.ts";
import { hashPassword } from "../auth/password.ts";
import { conflict } from "../http/errors.ts";

export interface AdminAccountView {
  id: number;
  email: string;
}

/** Emails are compared lowercased and trimmed, so Admin@Example.com and admin@example.com are one account. */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/** Creates an admin; 409 when the email already has an account. */
export async function createAdminAccount(
  db: Database,
  input: { email: string; password: string },
): Promise<AdminAccountView> {
  const email = normaliseEmail(input.email);
  const passwordHash = await hashPassword(input.password);
  const [row] = await db
    .insert(adminAccounts)
    .values({ email, passwordHash })
    .onConflictDoNothing({ target: adminAccounts.email })
    .returning({ id: adminAccounts.id, email: adminAccounts.email });
  if (!row) throw conflict(`An admin account for ${email} already exists.`);
  return row;
}

/** The stored account (with its hash) for an email, for checking a sign-in. */
export async function findAdminByEmail(db: Database, email: string) {
  const [row] = await db.select().from(adminAccounts).where(eq(adminAccounts.email, normaliseEmail(email)));
  return row;
}

export async function adminExists(db: Database): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(adminAccounts);
  return row!.n > 0;
}

/** The statement that records an admin's sign-in (run with the session it opens: issueSession's `alsoWrite`). */
export function adminSignedInStatement(id: number, now = new Date()): SQL {
  return sql`UPDATE ${adminAccounts} SET "last_login_at" = ${now} WHERE "id" = ${id}`;
}
