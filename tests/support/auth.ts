/** Test helpers for signed-in callers. */
import type { Level } from "../../src/lib/levels.ts";
import type { Database } from "../../src/server/db/client.ts";
import { issueAccessCode } from "../../src/server/repositories/access-codes.ts";
import type { Api } from "./api.ts";

/** The `name=value` pair of a response's Set-Cookie, to send back as a Cookie header. */
export function cookieOf(response: Response): string {
  const header = response.headers.getSetCookie()[0];
  if (!header) throw new Error("The response set no cookie.");
  return header.split(";")[0]!;
}

export const jsonPost = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});

/** Issues a code of `level` and logs in with it; answers the session cookie and the code. */
export async function loginAs(api: Api, db: Database, level: Level) {
  const code = await issueAccessCode(db, { level });
  const response = await api("/api/auth/validate", jsonPost({ login: code.login, password: code.password }));
  if (response.status !== 200) throw new Error(`login failed: ${response.status} ${await response.text()}`);
  return { cookie: cookieOf(response), code };
}
