/**
 * Work that may finish after the response: on Netlify it is handed to `context.waitUntil`, so the
 * function instance is not frozen before it ends; elsewhere it simply runs on.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { logFailure } from "../http/log-failure.ts";

type WaitUntil = (promise: Promise<unknown>) => void;

const scope = new AsyncLocalStorage<WaitUntil>();

/** Runs `task` with `waitUntil` receiving the work it defers. */
export function withWaitUntil<T>(waitUntil: WaitUntil | undefined, task: () => T): T {
  return waitUntil ? scope.run(waitUntil, task) : task();
}

/** Lets `work` finish after the response; a failure is logged, never thrown. */
export function deferAfterResponse(work: Promise<unknown>): void {
  const settled = work.catch((error) => logFailure("Deferred work failed", error));
  scope.getStore()?.(settled);
}
