/**
 * The Netlify Functions of netlify/functions, imported once and routed by their `config.path`
 * (URLPattern syntax, as on Netlify). A function without a path answers at
 * /.netlify/functions/{name}, as on Netlify.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

type Handler = (request: Request, context: { params: Record<string, string> }) => Response | Promise<Response>;

interface FunctionModule {
  default: Handler;
  config?: { path?: string | string[]; excludedPath?: string | string[]; preferStatic?: boolean; method?: string | string[]; schedule?: string };
}

export interface FunctionRoute {
  name: string;
  preferStatic: boolean;
  match(url: URL, method: string): Readonly<Record<string, string>> | null;
  handler: Handler;
}

/** How many paths each function remembers the matching of (then forgets them all at once). */
const MAX_REMEMBERED_PATHS = 10_000;

export async function loadFunctions(dir: string): Promise<FunctionRoute[]> {
  const files = fs
    .readdirSync(dir)
    .filter((file) => /\.(ts|mts|js|mjs)$/.test(file) && !file.endsWith(".test.ts"))
    .sort();
  const modules = await Promise.all(
    files.map(async (file) => ({ name: file.replace(/\.\w+$/, ""), mod: (await import(pathToFileURL(path.join(dir, file)).href)) as FunctionModule })),
  );
  // A scheduled function has no address on Netlify (it cannot be called by URL in production);
  // the local host runs the same job on a timer instead.
  return modules
      .filter(({ mod }) => !mod.config?.schedule)
      .map(({ name, mod }) => {
        const paths = [mod.config?.path ?? `/.netlify/functions/${name}`].flat();
        const patterns = paths.map((pathname) => new URLPattern({ pathname }));
        const excluded = [mod.config?.excludedPath ?? []].flat().map((pathname) => new URLPattern({ pathname }));
        const methods = mod.config?.method ? [mod.config.method].flat() : null;
        const matchPath = (pathname: string, method: string): Readonly<Record<string, string>> | null => {
          if (methods && !methods.includes(method)) return null;
          if (excluded.some((pattern) => pattern.test({ pathname }))) return null;
          for (const pattern of patterns) {
            const result = pattern.exec({ pathname });
            if (result) {
              const groups = result.pathname.groups;
              return Object.freeze(Object.fromEntries(Object.entries(groups).filter((entry): entry is [string, string] => entry[1] !== undefined)));
            }
          }
          return null;
        };
        // URLPattern's matching is slow next to the rest of an answer: each path's result is remembered.
        const remembered = new Map<string, Readonly<Record<string, string>> | null>();
        return {
          name,
          preferStatic: mod.config?.preferStatic ?? false,
          handler: mod.default,
          match(url: URL, method: string) {
            const key = `${method} ${url.pathname}`;
            let found = remembered.get(key);
            if (found === undefined) {
              found = matchPath(url.pathname, method);
              if (remembered.size >= MAX_REMEMBERED_PATHS) remembered.clear();
              remembered.set(key, found);
            }
            return found;
          },
        };
      });
}
