/**
 * The database a request talks to. The local host (and tests) install one for the whole process;
 * a Netlify Function opens one connection per request instead (src/server/runtime/serve.ts), kept
 * in an AsyncLocalStorage scope and closed when the request ends: a frozen function instance never
 * holds a connection, and one request never takes two.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Connection } from "./remote.ts";
import type { Database, Driver } from "./types.ts";

type AnyConnection = Connection<Driver>;

let installed: Promise<AnyConnection> | undefined;
const requestScope = new AsyncLocalStorage<{ connection(): Promise<AnyConnection>; holds: Promise<unknown>[] }>();

/** The current request's connection, or the process's. */
export function currentConnection(): Promise<AnyConnection> {
  const scoped = requestScope.getStore();
  if (scoped) return scoped.connection();
  if (!installed) {
    return Promise.reject(new Error("No database is open: the host (or a test) must install one with useDatabase()."));
  }
  return installed;
}

/**
 * Keeps the request's connection open until `done` settles: for a response whose body is still
 * read from the database after the handler returns (a streamed download). No effect locally.
 */
export function keepConnectionUntil(done: Promise<unknown>): void {
  requestScope.getStore()?.holds.push(done);
}

export async function database(): Promise<Database> {
  return (await currentConnection()).db;
}

let generation = 0;

/**
 * Which database the process has: it changes whenever `useDatabase` installs another (tests move
 * between databases), so what is kept from one (rendered pages) never answers for another.
 */
export function databaseGeneration(): number {
  return generation;
}

/** Makes `connection` the process's database (the local host and tests). */
export function useDatabase(connection: AnyConnection): void {
  installed = Promise.resolve(connection);
  generation++;
}

export async function closeDatabase(): Promise<void> {
  const connection = installed;
  installed = undefined;
  if (connection) await (await connection).close();
}

/**
 * Runs `task` with a connection of its own, opened on its first query and closed when the task
 * ends. `defer` lets the platform finish the close after the response is sent (Netlify's
 * `context.waitUntil`); without it the close is awaited.
 */
export async function withRequestDatabase<T>(
  open: () => Promise<AnyConnection>,
  task: () => Promise<T>,
  defer?: (closing: Promise<unknown>) => void,
): Promise<T> {
  let opened: Promise<AnyConnection> | undefined;
  const holds: Promise<unknown>[] = [];
  try {
    return await requestScope.run({ connection: () => (opened ??= open()), holds }, task);
  } finally {
    if (opened) {
      const connection = opened;
      const closing = Promise.allSettled(holds)
        .then(() => connection)
        .then((it) => it.close())
        .catch(() => {});
      if (defer) defer(closing);
      else await closing;
    }
  }
}
