/**
 * The one fetch wrapper for islands (SPEC.md sections 7, 8 and 9): credentials always included, a
 * JSON body sent with a JSON content type only when there is one, and any non-successful
 * response turned into an ApiError whose message is "{status}: {text}", the text being our JSON
 * error's message, else the body, else the status text.
 *
 * Queries (GET) are retried once after 1 s when the network or the server fails. Mutations are
 * never retried here, and every failed one is logged as 'Query mutation error:'. (Saving a scan
 * answer is idempotent: the scan retries it itself, see islands/assessment/scan-sync.ts.)
 */
export class ApiError extends Error {
  override name = "ApiError";
  readonly status: number;
  /** The text after "{status}: ": what the server said. */
  readonly text: string;
  /** Our JSON error's code (`{ "error": { "code" } }`), when the body is one. */
  readonly code: string | null;
  /** The rest of our JSON error (a 409's `current` version, say). */
  readonly details: Record<string, unknown>;
  constructor(status: number, text: string, code: string | null = null, details: Record<string, unknown> = {}) {
    super(`${status}: ${text}`);
    this.status = status;
    this.text = text;
    this.code = code;
    this.details = details;
  }
}

/** The pause before a failed query's one retry (SPEC.md section 9). */
export const QUERY_RETRY_DELAY_MS = 1000;

/** The ApiError of a response that is not ok. */
export async function apiErrorOf(response: Response): Promise<ApiError> {
  const body = await response.text().catch(() => "");
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown; message?: unknown } };
    const { code, message, ...details } = parsed.error ?? {};
    if (typeof message === "string" && message) return new ApiError(response.status, message, typeof code === "string" ? code : null, details);
  } catch {
    // not JSON: the text itself
  }
  return new ApiError(response.status, body || response.statusText);
}

/** SPEC.md section 8: every failed mutation is logged with this text. */
export function logMutationError(error: unknown): void {
  console.error("Query mutation error:", error);
}

async function send<T>(method: string, url: string, body: unknown): Promise<T> {
  const response = await fetch(url, {
    method,
    credentials: "include",
    headers: body === undefined ? undefined : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw await apiErrorOf(response);
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Whether a failed query may pass on a second try: the network, the server, or too many at once. */
function mayPassLater(error: unknown): boolean {
  return !(error instanceof ApiError) || error.status >= 500 || error.status === 408 || error.status === 429;
}

export async function apiRequest<T = unknown>(method: string, url: string, body?: unknown): Promise<T> {
  if (method === "GET") {
    try {
      return await send<T>(method, url, body);
    } catch (error) {
      if (!mayPassLater(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, QUERY_RETRY_DELAY_MS));
      return send<T>(method, url, body);
    }
  }
  try {
    return await send<T>(method, url, body);
  } catch (error) {
    logMutationError(error);
    throw error;
  }
}

/** A failed call's message, "{status}: {text}" for an ApiError (SPEC.md section 8). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
