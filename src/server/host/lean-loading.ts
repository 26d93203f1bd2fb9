/**
 * Two costs Node pays while a server loads its modules, and that the server would keep for its
 * whole life as resident memory: V8 grows its heap for the garbage they make and does not give
 * the pages back (measured in README, "Memory").
 * - Type stripping: every .ts file goes through a WebAssembly compiler, which stays loaded. With
 *   Node's compile cache, a start after the first takes the stripped and compiled code from disk.
 * - drizzle-orm's package.json is 175 KB, and Node parses it again for each of the ~110 files of
 *   drizzle-orm a server imports, only to learn that a `.js` file there is an ES module (its
 *   "type"). A relative `.js` import inside drizzle-orm is resolved here instead: the same URL
 *   and format Node would find (src/server/host/lean-loading.test.ts compares them).
 */
import module from "node:module";
import path from "node:path";

/** Where the compile cache is kept (beside the installed packages, so a reinstall clears it). */
export const COMPILE_CACHE_DIR = path.resolve(import.meta.dirname, "../../..", "node_modules", ".cache", "node-compile-cache");

const DRIZZLE = "/node_modules/drizzle-orm/";

/** The resolution of `specifier` from `parentUrl` when it is a relative `.js` import inside drizzle-orm, else null. */
export function drizzleInternalImport(specifier: string, parentUrl: string | undefined): { url: string; format: "module" } | null {
  if (!parentUrl?.startsWith("file:") || !parentUrl.includes(DRIZZLE) || !specifier.startsWith(".") || !specifier.endsWith(".js")) return null;
  return { url: new URL(specifier, parentUrl).href, format: "module" };
}

/** Call before the server's own modules load (src/server/host/start.ts). */
export function leanModuleLoading(): void {
  module.enableCompileCache?.(COMPILE_CACHE_DIR);
  module.registerHooks?.({
    resolve(specifier, context, nextResolve) {
      const resolved = drizzleInternalImport(specifier, context.parentURL);
      return resolved ? { ...resolved, shortCircuit: true } : nextResolve(specifier, context);
    },
  });
}
