/**
 * Every statement the application sends, as drizzle's logger sees it (each one a round trip to
 * the database, BEGIN and COMMIT included). Nothing listens in production; tests count the
 * statements of a request (tests/support/query-count.ts) to keep the hot paths short.
 */
type Listener = (statement: string) => void;

const listeners = new Set<Listener>();

export const queryLogger = {
  logQuery(statement: string): void {
    for (const listener of listeners) listener(statement);
  },
};

/** Calls `listener` with each statement until the returned function is called. */
export function onQuery(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
