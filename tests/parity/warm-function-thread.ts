/**
 * One warm function instance for @netlify/dev (see warm-functions.ts): runs the emulator's worker
 * script once per request, one request at a time, as if it were a new worker thread whose
 * workerData is that request and whose parent is that request's port. The script imports the
 * function's bundle at the same address each time, so the bundle is loaded once.
 */
import { syncBuiltinESMExports } from "node:module";
import workerThreads, { type MessagePort } from "node:worker_threads";

interface Job {
  id: number;
  script: string;
  workerData: unknown;
  port: MessagePort;
}

const control = workerThreads.parentPort!;
let queue = Promise.resolve();
let runs = 0;

control.on("message", (job: Job) => {
  queue = queue.then(async () => {
    Object.assign(workerThreads, { workerData: job.workerData, parentPort: job.port });
    syncBuiltinESMExports();
    try {
      // A fresh evaluation of the script (its own address), which reads workerData and posts to parentPort.
      await import(`${job.script}?run=${++runs}`);
      control.postMessage({ id: job.id });
    } catch (error) {
      // (As a worker's 'error' event would carry it; a value that cannot be posted goes as text.)
      try {
        control.postMessage({ id: job.id, error });
      } catch {
        control.postMessage({ id: job.id, error: new Error(String(error)) });
      }
    }
  });
});
