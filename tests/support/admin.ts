/** Test helpers for admin callers. */
import { randomBytes } from "node:crypto";
import type { Database } from "../../src/server/db/client.ts";
import { createAdminAccount } from "../../src/server/admin/accounts.ts";
import type { Api } from "./api.ts";
import { cookieOf, jsonPost } from "./auth.ts";

let sequence = 0;

/** Creates an admin account and signs in with it; answers the admin cookie and the credentials. */
export async function adminLogin(api: Api, db: Database) {
  const email = `admin-${++sequence}-${randomBytes(3).toString("hex")}@example.com`;
  const password = `pw-${randomBytes(12).toString("hex")}`;
  await createAdminAccount(db, { email, password });
  const response = await api("/api/admin/login", jsonPost({ email, password }, { "x-nf-client-connection-ip": "192.0.2.250" }));
  if (response.status !== 200) throw new Error(`admin login failed: ${response.status} ${await response.text()}`);
  return { cookie: cookieOf(response), email, password };
}

/** Request options with the admin cookie: a JSON body for POST/PUT, none otherwise. */
export function asAdmin(cookie: string, method = "GET", body?: unknown): RequestInit {
  const headers: Record<string, string> = { cookie };
  if (body !== undefined) headers["content-type"] = "application/json";
  return { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
}
