/**
 * What the server logs of a failure it did not expect. A failed statement carries what it was
 * sent: drizzle puts the parameters in its error's message (a batched page key holds other
 * readers' session ids), and PostgreSQL's own messages quote values ('invalid input syntax for
 * type integer: "..."'). So a database failure is logged as its SQLSTATE code and a fixed
 * sentence, never its text; any other error keeps its stack, which is the code's own words.
 */

interface Found {
  database: boolean;
  code: string | null;
}

/** Whether `error` (or a cause of it) is a failed statement, and PostgreSQL's code for it. */
function inspect(error: unknown): Found {
  const found: Found = { database: false, code: null };
  const seen = new Set<unknown>();
  for (let e = error; e && typeof e === "object" && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    const { query, params, severity, code } = e as { query?: unknown; params?: unknown; severity?: unknown; code?: unknown };
    // drizzle's DrizzleQueryError names the statement; pg, Neon and PGlite errors carry a severity.
    if (typeof query === "string" || Array.isArray(params) || typeof severity === "string") found.database = true;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) && typeof severity === "string") found.code = code;
  }
  return found;
}

/**
 * The line logged for `error`: safe to keep in any log (see above). `stack` adds a non-database
 * error's stack to its message (for failures nobody expected).
 */
export function failureLine(context: string, error: unknown, { stack = false } = {}): string {
  const { database, code } = inspect(error);
  if (database) return `${context}: a database statement failed (SQLSTATE ${code ?? "unknown"}).`;
  if (!(error instanceof Error)) return `${context}: ${String(error)}`;
  return `${context}: ${stack && error.stack ? error.stack : error.message}`;
}

/** Logs a failure nobody expected (a 500), as `failureLine` words it, with its stack. */
export function logFailure(context: string, error: unknown): void {
  console.error(failureLine(context, error, { stack: true }));
}
