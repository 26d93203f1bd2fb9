/**
 * Starting the product as `npm start` does (src/server/host/start.ts in its own process), for
 * integration tests, end-to-end tests and benchmarks. Resolves once the server prints its address.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export const projectRoot = path.resolve(import.meta.dirname, "../..");

export interface ProductServer {
  /** http://127.0.0.1:PORT (an address, not "localhost", so clients never try ::1 first). */
  url: string;
  child: ChildProcess;
  /** Everything the server printed so far. */
  output(): string;
  /** Peak resident memory so far, in MiB (VmHWM). */
  peakMemoryMiB(): number;
  /** Sends `signal` and resolves with the exit code once the process has exited. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** The Node flags `npm start` runs the server with (package.json's start script), so tests and the bench run it alike. */
export function serverNodeFlags(): string[] {
  const start = (JSON.parse(fs.readFileSync(path.join(projectRoot, "package.json"), "utf8")) as { scripts: { start: string } }).scripts.start;
  return start.split(/\s+/).filter((word) => word.startsWith("--"));
}

/**
 * Starts the product with `env` over the current environment; PORT defaults to a free one.
 * `root`: another checkout of the project to start (the bench compares commits).
 */
export async function startProduct(env: Record<string, string>, timeoutMs = 180_000, root = projectRoot): Promise<ProductServer> {
  const child = spawn(process.execPath, [...serverNodeFlags(), path.join(root, "src/server/host/start.ts")], {
    cwd: root,
    env: { ...process.env, PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`The server did not start within ${timeoutMs / 1000} s:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = /running at http:\/\/localhost:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${match[1]}`);
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`The server exited with ${code} before it started:\n${output}`));
    });
  });
  return {
    url,
    child,
    output: () => output,
    peakMemoryMiB() {
      const status = fs.readFileSync(`/proc/${child.pid}/status`, "utf8");
      return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
    },
    stop(signal = "SIGTERM") {
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      child.kill(signal);
      return exited;
    },
  };
}
