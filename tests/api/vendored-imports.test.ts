/**
 * Packages some server code imports by path (docs/decisions/0008): each path must name exactly
 * the file its package name resolves to, or a process would load two copies of one package.
 */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

/** The package specifier each vendored path stands for. */
const VENDORED: Record<string, string> = {
  "node_modules/zod/index.js": "zod",
  "node_modules/markdown-it/dist/markdown-it.mjs": "markdown-it",
  "node_modules/drizzle-orm/index.js": "drizzle-orm",
  "node_modules/drizzle-orm/pg-core/index.js": "drizzle-orm/pg-core",
  "node_modules/drizzle-orm/neon-serverless/index.js": "drizzle-orm/neon-serverless",
  "node_modules/drizzle-orm/node-postgres/index.js": "drizzle-orm/node-postgres",
};

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|astro)$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe("packages imported by path", () => {
  const imports = sourceFiles(path.join(root, "src")).flatMap((file) =>
    [...fs.readFileSync(file, "utf8").matchAll(/["']((?:\.\.?\/)+node_modules\/[^"']+)["']/g)].map((m) => ({
      file,
      target: path.relative(root, path.resolve(path.dirname(file), m[1]!)),
    })),
  );

  it("are only the vendored ones, each found", () => {
    expect(imports.length).toBeGreaterThanOrEqual(Object.keys(VENDORED).length);
    for (const { file, target } of imports) {
      expect(VENDORED[target], `${path.relative(root, file)} imports ${target}`).toBeDefined();
      expect(fs.existsSync(path.join(root, target)), target).toBe(true);
    }
  });

  it("name the very file the package name resolves to", () => {
    for (const [target, specifier] of Object.entries(VENDORED)) {
      expect(import.meta.resolve(specifier), specifier).toBe(pathToFileURL(path.join(root, target)).href);
    }
  });
});
