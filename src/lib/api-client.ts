/**
 * The one fetch wrapper for islands (SPEC.md sections 7 and 8): credentials always included, a
 * JSON body sent with a JSON content type only when there is one, and any non-successful
 * response turned into an Error whose message is "{status}: {body text or status text}".
 */
export class ApiError extends Error {
  override name = "ApiError";
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

export async function apiRequest<T = unknown>(method: string, url: string, body?: unknown): Promise<T> {
  const response = await fetch(url, {
    method,
    credentials: "include",
    headers: body === undefined ? undefined : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) {
    const text = (await response.text()) || response.statusText;
    throw new ApiError(response.status, `${response.status}: ${text}`);
  }
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** The human part of an API error: the server's `error.message` when the body is our JSON error. */
export function errorMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const body = error.message.replace(/^\d{3}: /, "");
  try {
    const parsed = JSON.parse(body) as { error?: { message?: string } };
    if (parsed.error?.message) return parsed.error.message;
  } catch {
    // not JSON: the text itself
  }
  return error instanceof ApiError ? body : error.message;
}
