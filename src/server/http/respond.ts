/**
 * Turning results and errors into Responses, the same way for every route: JSON bodies, errors as
 * `{ "error": { "code", "message" } }` (DESIGN.md section 6).
 */
import { HttpError, isDatabaseUnavailable, isWriteConflict, WRITE_CONFLICT_MESSAGE } from "./errors.ts";
import { logFailure } from "./log-failure.ts";
import { requireSameSite } from "./request.ts";

const baseHeaders = {
  "content-type": "application/json; charset=utf-8",
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
};

export function json(data: unknown, init: { status?: number; headers?: HeadersInit; cookies?: readonly string[] } = {}): Response {
  const headers = new Headers(baseHeaders);
  for (const [name, value] of new Headers(init.headers)) headers.set(name, value);
  for (const cookie of init.cookies ?? []) headers.append("set-cookie", cookie);
  return new Response(JSON.stringify(data), { status: init.status ?? 200, headers });
}

export function errorBody(code: string, message: string) {
  return { error: { code, message } };
}

export function toErrorResponse(error: unknown): Response {
  if (error instanceof HttpError) {
    return json({ error: { ...error.details, code: error.code, message: error.message } }, { status: error.status, headers: error.headers });
  }
  if (isDatabaseUnavailable(error)) {
    return json(errorBody("database_unavailable", "The database is not reachable right now. Try again shortly."), {
      status: 503,
      headers: { "retry-after": "5" },
    });
  }
  if (isWriteConflict(error)) return json(errorBody("conflict", WRITE_CONFLICT_MESSAGE), { status: 409 });
  logFailure("Unexpected error while answering a request", error);
  return json(errorBody("internal", "Something went wrong on our side. Try again shortly."), { status: 500 });
}

type Method = "GET" | "POST" | "PUT" | "DELETE" | "PATCH";
type Handler<A extends unknown[]> = (request: Request, ...args: A) => Response | Promise<Response>;

/**
 * One route: a handler per method. Other methods get 405 with Allow; any thrown error becomes
 * its JSON response. Every method but GET and HEAD changes state, and refuses other sites first
 * (requireSameSite): one door for all, so no handler can forget it (issue 42: 6).
 */
export function route<A extends unknown[] = []>(
  handlers: Partial<Record<Method, Handler<A>>>,
): (request: Request, ...args: A) => Promise<Response> {
  const allow = Object.keys(handlers).join(", ");
  return async (request, ...args) => {
    const handler = handlers[request.method as Method] ?? (request.method === "HEAD" ? handlers.GET : undefined);
    if (!handler) {
      return json(errorBody("method_not_allowed", `Use ${allow} for this address.`), {
        status: 405,
        headers: { allow },
      });
    }
    try {
      if (request.method !== "GET" && request.method !== "HEAD") requireSameSite(request);
      return await handler(request, ...args);
    } catch (error) {
      return toErrorResponse(error);
    }
  };
}
