/**
 * netlify.toml, read the way Netlify reads its redirects and headers, so the local host routes
 * exactly as production does.
 */
import fs from "node:fs";
import path from "node:path";
import { parse } from "smol-toml";
import { z } from "../../lib/zod.ts";

const redirectSchema = z.object({
  from: z.string().startsWith("/"),
  to: z.string().min(1),
  status: z.number().int().default(301),
  force: z.boolean().default(false),
});

const fileSchema = z.object({
  build: z.object({ publish: z.string(), functions: z.string() }),
  redirects: z.array(redirectSchema).default([]),
  headers: z
    .array(z.object({ for: z.string().startsWith("/"), values: z.record(z.string(), z.string()) }))
    .default([]),
});

export interface Redirect {
  match(pathname: string): { to: string; status: number } | null;
  force: boolean;
}

export interface NetlifyConfig {
  publish: string;
  functionsDir: string;
  redirects: Redirect[];
  /** The custom headers for a path, in file order (later rules win on a clash). */
  headersFor(pathname: string): Record<string, string>;
}

export const projectRoot = path.resolve(import.meta.dirname, "../../..");

export function readNetlifyConfig(file = path.join(projectRoot, "netlify.toml")): NetlifyConfig {
  const parsed = fileSchema.parse(parse(fs.readFileSync(file, "utf8")));
  const root = path.dirname(file);
  const headerRules = parsed.headers.map((rule) => ({ pattern: compile(rule.for), values: rule.values }));
  return {
    publish: path.resolve(root, parsed.build.publish),
    functionsDir: path.resolve(root, parsed.build.functions),
    redirects: parsed.redirects.map((rule) => {
      const pattern = compile(rule.from);
      return {
        force: rule.force,
        match(pathname) {
          const params = pattern(pathname);
          if (!params) return null;
          const to = rule.to.replace(/:([a-z_]\w*)/gi, (whole, name: string) => params[name] ?? whole);
          return { to, status: rule.status };
        },
      };
    }),
    headersFor(pathname) {
      const out: Record<string, string> = {};
      for (const rule of headerRules) if (rule.pattern(pathname)) Object.assign(out, rule.values);
      return out;
    },
  };
}

/** A Netlify path pattern: `:name` matches one segment, a trailing `*` the rest (as `splat`). */
function compile(pattern: string): (pathname: string) => Record<string, string> | null {
  const names: string[] = [];
  const source = pattern
    .split(/(:[a-z_]\w*|\*)/i)
    .map((part) => {
      if (part === "*") {
        names.push("splat");
        return "(.*)";
      }
      if (part.startsWith(":")) {
        names.push(part.slice(1));
        return "([^/]+)";
      }
      return part.replace(/[.+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("");
  const regex = new RegExp(`^${source}/?$`);
  return (pathname) => {
    const m = regex.exec(pathname);
    if (!m) return null;
    return Object.fromEntries(names.map((name, i) => [name, m[i + 1] ?? ""]));
  };
}
