/**
 * The functions as Netlify deploys them: each one packed by Netlify's bundler (as the production
 * check packs them), its zip size, and its cold start as far as it is the function's own: a fresh
 * process with only the runtime environment imports the bundle (Netlify's bootstrap), then takes
 * its first invocation (a GET of its route), which loads the function's code; the database is
 * refused at once, so no network time is counted. AWS adds its own start of the runtime.
 * Medians of three starts.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { BUILD_HOOK_URL, LAMBDA_RUNTIME, runtimeEnvironment } from "../tests/production/emulator.ts";
import { copyProject, packFunctions, type PackedFunction } from "../tests/production/pack.ts";
import { projectRoot } from "../tests/support/product-server.ts";

export interface FunctionFigures {
  zipKiB: number;
  /** Importing the bundle's entry (Netlify's bootstrap). */
  importMs: number;
  /** The first invocation after that: loading the function's own code, and answering. */
  firstInvocationMs: number;
}

/** One invocation of a started instance (lambda-runtime.ts's protocol): ms until its answer. */
function invoke(port: number, fn: PackedFunction): Promise<number> {
  const route = fn.routes[0]?.pattern.replace(/:\w+/g, "x").replace("*", "health") ?? `/.netlify/functions/${fn.name}`;
  const event = { rawUrl: `https://book.example${route}`, rawQuery: "", path: route, httpMethod: "GET", headers: {}, body: null, isBase64Encoded: false, route: fn.routes[0]?.pattern ?? "", flags: {} };
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.request({ host: "127.0.0.1", port, method: "POST" }, (res) => {
      res.once("data", () => resolve(performance.now() - started));
      res.resume();
    });
    request.on("error", reject);
    request.end(JSON.stringify({ event, clientContext: { custom: {} } }));
  });
}

/** Starts the function once: how long the import and then the first invocation took. */
function coldStart(fn: PackedFunction): Promise<{ importMs: number; firstInvocationMs: number }> {
  const env = runtimeEnvironment(fn, { DATABASE_URL: "postgres://bench@127.0.0.1:9/bench", SESSION_SECRET: "x".repeat(48), BUILD_HOOK_URL }, "");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [LAMBDA_RUNTIME, fn.entry, JSON.stringify({ hosts: {} })], { cwd: fn.dir, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    let invoked = false;
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk;
      const match = /listening (\d+) import ([\d.]+) ms/.exec(output);
      if (!match || invoked) return;
      invoked = true;
      invoke(Number(match[1]), fn).then(
        (firstInvocationMs) => {
          child.kill("SIGKILL");
          resolve({ importMs: Number(match[2]), firstInvocationMs });
        },
        reject,
      );
    });
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.once("exit", (code) => {
      if (!invoked) reject(new Error(`${fn.name} exited with ${code}: ${output}`));
    });
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Packs the project's functions (its files copied into `.netlify/bench`, node_modules hard-linked,
 * and the built site when there is one, for the pages the chapter function bundles) and measures each.
 */
export async function functionFigures(): Promise<Record<string, FunctionFigures>> {
  const root = path.join(projectRoot, ".netlify", "bench");
  copyProject(projectRoot, root);
  if (fs.existsSync(path.join(projectRoot, "dist"))) fs.cpSync(path.join(projectRoot, "dist"), path.join(root, "dist"), { recursive: true });
  const functions = await packFunctions(root, path.join(root, ".netlify", "functions"));
  const figures: Record<string, FunctionFigures> = {};
  for (const fn of functions.sort((a, b) => a.name.localeCompare(b.name))) {
    const starts = [];
    for (let i = 0; i < 3; i++) starts.push(await coldStart(fn));
    figures[fn.name] = {
      zipKiB: Math.round(fn.bytes / 1024),
      importMs: Math.round(median(starts.map((s) => s.importMs))),
      firstInvocationMs: Math.round(median(starts.map((s) => s.firstInvocationMs))),
    };
  }
  fs.rmSync(root, { recursive: true, force: true });
  return figures;
}
