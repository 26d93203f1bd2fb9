/** The one error class for API failures; `toErrorResponse` (respond.ts) turns it into JSON. */
export class HttpError extends Error {
  override name = "HttpError";
  readonly status: number;
  readonly code: string;
  readonly headers: Record<string, string>;
  /** More for the caller beside code and message (a 409's current version, say). */
  readonly details: Record<string, unknown>;
  constructor(status: number, code: string, message: string, headers: Record<string, string> = {}, details: Record<string, unknown> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.headers = headers;
    this.details = details;
  }
}

export const badRequest = (message: string) => new HttpError(400, "bad_request", message);
export const unauthenticated = (message = "Sign in to read this.") =>
  new HttpError(401, "unauthenticated", message);
export const forbidden = (message = "Your access level does not include this.") =>
  new HttpError(403, "forbidden", message);
export const notFound = (message = "Not found.") => new HttpError(404, "not_found", message);
export const conflict = (message: string) => new HttpError(409, "conflict", message);

const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EPIPE",
  "EHOSTUNREACH",
  "53300", // too_many_connections (the server's or the role's limit, Neon's pooler included)
  "53400", // configuration_limit_exceeded
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
]);

/** Whether an error (or one of its causes) says the database cannot be reached right now. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error; e instanceof Error || (e && typeof e === "object"); e = (e as { cause?: unknown }).cause) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === "string" && UNAVAILABLE_CODES.has(code)) return true;
    if (
      typeof message === "string" &&
      /connection terminated|timeout exceeded when trying to connect|connect ECONNREFUSED|websocket|Connection refused|the database system is (starting up|shutting down)|too many (connections|clients)|remaining connection slots|Couldn't connect to compute node/i.test(
        message,
      )
    ) {
      return true;
    }
    if (e === (e as { cause?: unknown }).cause) break;
  }
  return false;
}

/** Errors that say the same request may well succeed when sent again: a collision with another write. */
const CONFLICT_CODES = new Set([
  "40001", // serialization_failure
  "40P01", // deadlock_detected
  "55P03", // lock_not_available
]);

/** Whether an error (or one of its causes) is a collision with a concurrent write. */
export function isWriteConflict(error: unknown): boolean {
  for (let e = error; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    const { code } = e as { code?: unknown };
    if (typeof code === "string" && CONFLICT_CODES.has(code)) return true;
    if (e === (e as { cause?: unknown }).cause) break;
  }
  return false;
}

export const WRITE_CONFLICT_MESSAGE = "Another change was being saved at the same moment, so this one was not. Try again.";
