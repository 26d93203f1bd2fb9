/**
 * @netlify/dev, as a development server, bundles a function again on every request (so an edit is
 * seen at once) and runs each request in a new worker thread, which loads the whole bundle again:
 * about 2.3 s of bundling and 0.6 s of loading per request here, for the same bundle every time.
 * Netlify itself bundles a function once per deploy and serves many requests from one warm
 * instance. This makes the emulator do the same for the length of a test, without changing what
 * answers a request:
 *
 * - every invocation uses the function as @netlify/dev built it when it started (its own
 *   `invoke` without a build directory: the bundle of its start, in .netlify/functions-serve);
 * - the emulator's own worker script (@netlify/functions-dev/dist/worker.js: it imports the
 *   bundle, runs it through lambda-local and posts the answer back) still runs once per request,
 *   unchanged, but in one long-lived thread per function, so the bundle it imports is loaded once.
 *
 * The rest (routing by the functions' config, redirects, headers, static files, the request made
 * into a Lambda event and the answer back into a Response) is the emulator's code as it is.
 * Anything that is not the emulator's function worker gets a real Worker.
 */
import { EventEmitter } from "node:events";
import { createRequire, syncBuiltinESMExports } from "node:module";
import { MessageChannel, type MessagePort, type Worker, type WorkerOptions } from "node:worker_threads";
import { FunctionsHandler } from "@netlify/functions-dev";

const require = createRequire(import.meta.url);
const workerThreads = require("node:worker_threads") as { Worker: typeof Worker };

/** The worker script @netlify/functions-dev starts once per function request. */
const EMULATOR_WORKER = /\/@netlify\/functions-dev\/dist\/worker\.js$/;
const THREAD_SCRIPT = new URL("./warm-function-thread.ts", import.meta.url);

interface EmulatedFunction {
  invoke(options: { buildDirectory?: string } & Record<string, unknown>): Promise<Response>;
}
type HandlerInvoke = (this: unknown, request: Request, route: unknown, func: EmulatedFunction, buildDirectory?: string) => Promise<Response>;

interface Job {
  answer: EventEmitter;
  port: MessagePort;
}

interface WarmThread {
  thread: Worker;
  jobs: Map<number, Job>;
}

export interface WarmFunctions {
  /** Function requests the emulator has run, and the threads they ran in (one per function). */
  readonly invocations: number;
  readonly threads: number;
  /** Puts the emulator back as it was and ends the threads. */
  restore(): Promise<void>;
}

export function warmFunctions(): WarmFunctions {
  const RealWorker = workerThreads.Worker;
  const handler = FunctionsHandler.prototype as unknown as { invoke: HandlerInvoke };
  const originalInvoke = handler.invoke;
  if (typeof originalInvoke !== "function") throw new Error("@netlify/functions-dev has no FunctionsHandler.invoke any more: see tests/parity/warm-functions.ts");

  const startedBuilds = new WeakSet<EmulatedFunction>();
  handler.invoke = function (request, route, func, buildDirectory) {
    if (!startedBuilds.has(func)) {
      startedBuilds.add(func);
      const invoke = func.invoke;
      // (NetlifyFunction.invoke: with no build directory it waits for and uses its last build.)
      func.invoke = (options) => invoke.call(func, { ...options, buildDirectory: undefined });
    }
    return originalInvoke.call(this, request, route, func, buildDirectory);
  };

  const warm = new Map<string, WarmThread>();
  let invocations = 0;
  let nextId = 0;

  function threadFor(entry: string): WarmThread {
    let found = warm.get(entry);
    if (!found) {
      // As @netlify/functions-dev starts its worker: default options (this process's environment).
      const thread = new RealWorker(THREAD_SCRIPT);
      const jobs = new Map<number, Job>();
      found = { thread, jobs };
      warm.set(entry, found);
      thread.on("message", (message: { id: number; error?: unknown }) => {
        const job = jobs.get(message.id);
        jobs.delete(message.id);
        if (job && "error" in message) {
          job.port.close();
          job.answer.emit("error", message.error);
        }
      });
      const fail = (error: unknown) => {
        warm.delete(entry);
        for (const job of jobs.values()) job.answer.emit("error", error);
        jobs.clear();
      };
      thread.on("error", fail);
      thread.on("exit", (code) => fail(new Error(`The warm function thread exited (${code})`)));
    }
    return found;
  }

  function WarmWorker(url: string | URL, options?: WorkerOptions): EventEmitter {
    if (!EMULATOR_WORKER.test(String(url))) return new RealWorker(url, options);
    const workerData = options?.workerData as { entryFilePath: string };
    const { thread, jobs } = threadFor(workerData.entryFilePath);
    const answer = new EventEmitter();
    const { port1, port2 } = new MessageChannel();
    // What worker.js posts to its parent comes here, as a Worker's 'message'.
    port1.once("message", (result) => {
      port1.close();
      answer.emit("message", result);
    });
    const id = nextId++;
    jobs.set(id, { answer, port: port1 });
    invocations++;
    thread.postMessage({ id, script: String(url), workerData, port: port2 }, [port2]);
    return answer;
  }

  workerThreads.Worker = WarmWorker as unknown as typeof Worker;
  syncBuiltinESMExports();

  return {
    get invocations() {
      return invocations;
    },
    get threads() {
      return warm.size;
    },
    async restore() {
      workerThreads.Worker = RealWorker;
      syncBuiltinESMExports();
      handler.invoke = originalInvoke;
      const threads = [...warm.values()].map(({ thread }) => thread);
      warm.clear();
      await Promise.all(threads.map((thread) => thread.terminate()));
    },
  };
}
