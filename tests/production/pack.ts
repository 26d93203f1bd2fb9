/**
 * Packing the functions as Netlify's build does: @netlify/zip-it-and-ship-it's `zipFunctions`,
 * configured from netlify.toml the way @netlify/build configures it (packages/build/src/
 * plugins_core/functions/zisi.ts: `normalizeFunctionConfig`), with the Lambda Node version taken
 * from the build's NODE_VERSION. Used by the production check and by `npm run bench`.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { zipFunctions, type FunctionResult } from "@netlify/zip-it-and-ship-it";
import extractZip from "extract-zip";
import { parse } from "smol-toml";

export interface PackedFunction {
  name: string;
  zip: string;
  /** Bytes of the zip, as Netlify measures a function against its 50 MB limit. */
  bytes: number;
  /** Where the zip is unpacked (the function's LAMBDA_TASK_ROOT). */
  dir: string;
  /** The Lambda entry file inside `dir`. */
  entry: string;
  routes: NonNullable<FunctionResult["routes"]>;
  excludedRoutes: NonNullable<FunctionResult["excludedRoutes"]>;
  runtimeVersion: string | undefined;
  /** A scheduled function's cron expression, as the bundler read it from its config. */
  schedule: string | undefined;
}

interface TomlFunctionConfig {
  node_bundler?: string;
  external_node_modules?: string[];
  ignored_node_modules?: string[];
  included_files?: string[];
  schedule?: string;
}

/**
 * netlify.toml's [functions] as @netlify/config normalises it: settings directly under
 * [functions] apply to "*", each [functions."pattern"] table to the functions it matches.
 */
export function functionsConfigOf(toml: { functions?: Record<string, unknown> }): Record<string, TomlFunctionConfig> {
  const config: Record<string, TomlFunctionConfig> = { "*": {} };
  for (const [key, value] of Object.entries(toml.functions ?? {})) {
    if (key === "directory") continue;
    if (value && typeof value === "object" && !Array.isArray(value)) config[key] = value as TomlFunctionConfig;
    else (config["*"] as Record<string, unknown>)[key] = value;
  }
  return config;
}

/**
 * Copies the parts of the project Netlify's build sees into `root` (node_modules as hard links:
 * the bundler resolves real paths, so a symlinked node_modules would leave the packages out).
 */
export function copyProject(from: string, root: string): void {
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true });
  for (const entry of ["netlify", "src", "content", "public", "package.json", "netlify.toml", "astro.config.mjs", "tsconfig.json"]) {
    fs.cpSync(path.join(from, entry), path.join(root, entry), { recursive: true });
  }
  execFileSync("cp", ["-al", path.join(from, "node_modules"), path.join(root, "node_modules")]);
}

/** Packs every function of the project at `root` into `outDir` and unpacks each zip beside it. */
export async function packFunctions(root: string, outDir: string): Promise<PackedFunction[]> {
  const toml = parse(fs.readFileSync(path.join(root, "netlify.toml"), "utf8")) as {
    build: { functions: string; environment?: Record<string, string> };
    functions?: Record<string, unknown>;
  };
  const nodeVersion = toml.build.environment?.NODE_VERSION;
  const config = Object.fromEntries(
    Object.entries(functionsConfigOf(toml)).map(([pattern, value]) => [
      pattern,
      {
        externalNodeModules: value.external_node_modules,
        includedFiles: value.included_files,
        includedFilesBasePath: root,
        ignoredNodeModules: value.ignored_node_modules,
        nodeVersion,
        schedule: value.schedule,
        nodeBundler: value.node_bundler === "esbuild" ? ("esbuild_zisi" as const) : (value.node_bundler as undefined),
      },
    ]),
  );
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  const results = await zipFunctions({ user: { directories: [path.join(root, toml.build.functions)] } }, outDir, {
    basePath: root,
    repositoryRoot: root,
    config,
    manifest: path.join(outDir, "manifest.json"),
  });
  return Promise.all(
    results.map(async (result) => {
      const dir = path.join(outDir, result.name);
      await extractZip(result.path, { dir });
      return {
        name: result.name,
        zip: result.path,
        bytes: fs.statSync(result.path).size,
        dir,
        entry: path.join(dir, result.entryFilename),
        routes: result.routes ?? [],
        excludedRoutes: result.excludedRoutes ?? [],
        runtimeVersion: result.runtimeVersion,
        schedule: result.schedule,
      };
    }),
  );
}

/** Every file in an unpacked function, relative to its root. */
export function filesOf(fn: PackedFunction): string[] {
  return fs
    .readdirSync(fn.dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(fn.dir, path.join(entry.parentPath, entry.name)));
}

/** The functions a previous `packFunctions` left in `outDir` (from its manifest), unpacked. */
export function loadPacked(outDir: string): PackedFunction[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(outDir, "manifest.json"), "utf8")) as {
    functions: Array<{ name: string; path: string; routes?: PackedFunction["routes"]; excludedRoutes?: PackedFunction["excludedRoutes"]; runtimeVersion?: string; schedule?: string; mainFile: string }>;
  };
  return manifest.functions.map((fn) => {
    const dir = path.join(outDir, fn.name);
    return {
      name: fn.name,
      zip: fn.path,
      bytes: fs.statSync(fn.path).size,
      dir,
      entry: path.join(dir, "___netlify-entry-point.mjs"),
      routes: fn.routes ?? [],
      excludedRoutes: fn.excludedRoutes ?? [],
      runtimeVersion: fn.runtimeVersion,
      schedule: fn.schedule,
    };
  });
}
