/**
 * The names the site holds at the top level of its address space (issue 22: 2), for the tests that
 * keep src/lib/slug.ts RESERVED_SLUGS in step with them: a chapter at /{slug} must never take one.
 */
import fs from "node:fs";
import { expect } from "vitest";
import { chapterSlugSchema } from "../../src/lib/content-schemas.ts";
import { RESERVED_SLUGS, SLUG_PATTERN } from "../../src/lib/slug.ts";

/**
 * The top-level addresses a folder's entries give: a page file answers without its extension
 * (about.html and about.astro are /about, robots.txt.ts is /robots.txt), a compressed copy is its
 * file's, a folder is its name. Dot files are never served.
 */
export function topLevelNamesOf(dir: string): string[] {
  const names = fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith("."))
    .map((entry) => (entry.isDirectory() ? entry.name : entry.name.replace(/\.(br|gz)$/, "").replace(/\.(html|astro|ts|md|mdx)$/, "")));
  return [...new Set(names)].sort();
}

/**
 * Every name can never be a chapter's slug: a name a slug could take is reserved (and refused in
 * words naming its address); the others (robots.txt, _astro) are refused by SLUG_PATTERN.
 */
export function expectEveryNameRefused(names: readonly string[], where: string): void {
  expect(names.length, where).toBeGreaterThan(0);
  for (const name of names) {
    if (SLUG_PATTERN.test(name)) expect(RESERVED_SLUGS, `${where}: /${name} is not in RESERVED_SLUGS (src/lib/slug.ts)`).toContain(name);
    const parsed = chapterSlugSchema.safeParse(name);
    expect(parsed.success, `${where}: a chapter could take the slug "${name}"`).toBe(false);
  }
}
