/** The bare baseline as a child process (the product starts with tests/support/product-server.ts). */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";

export interface Child {
  url: string;
  stop(): Promise<void>;
}

function waitFor(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  let output = "";
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = pattern.exec(output);
      if (match) resolve(match);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
}

function wrap(child: ChildProcess, url: string): Child {
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

export async function startBare(bodyFile: string, contentType: string, encoding?: string): Promise<Child> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, "bare-server.ts"), bodyFile, contentType, ...(encoding ? [encoding] : [])], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const match = await waitFor(child, /listening (\d+)/);
  return wrap(child, `http://127.0.0.1:${match[1]}`);
}
