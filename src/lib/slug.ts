/** Lowercase letters, digits and single hyphens, no hyphen at either end. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Latin letters that Unicode does not decompose into a base letter and marks. */
const LETTERS: Record<string, string> = { ł: "l", ß: "ss", æ: "ae", œ: "oe", ø: "o", đ: "d", ð: "d", þ: "th", ı: "i", ħ: "h", ŧ: "t" };

/**
 * The slug the create form proposes for a title (SPEC.md section 5): lowercased, each run of
 * non-alphanumeric characters replaced by a hyphen, leading and trailing hyphens trimmed. Accented
 * letters are first written without their accents (issue 34: 11): 'Kraków' gives krakow, 'Straße'
 * strasse, 'Cœur' coeur, where they would otherwise cut the word apart.
 */
export function slugify(title: string): string {
  return title
    .toLowerCase()
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/[^\x00-\x7f]/g, (letter) => LETTERS[letter] ?? letter)
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/**
 * The names the site itself holds at the top level, so a chapter at /{slug} would be shadowed by
 * them or shadow them: every page of src/pages, the folders of public/ and of the build (Astro's
 * /_astro, the search index's /search-index), the host's own paths (/api, /uploads, /admin) and
 * netlify.toml's short addresses; and /pagefind and /pagefind-delta, where the search index was
 * until decision 0031 (a page opened before a deploy may still ask for them). Names a slug can never take (robots.txt, _astro, .netlify) are
 * refused by SLUG_PATTERN already. tests/api/routing.test.ts and the built-site check in
 * tests/integration/locked-content.test.ts fail when a new top-level name is not refused.
 */
export const RESERVED_SLUGS = [
  "404",
  "about",
  "admin",
  "api",
  "apply",
  "assessment",
  "chapter-not-found",
  "chapter-shell",
  "disclaimer",
  "images",
  "in-person",
  "index",
  "login",
  "messages",
  "page-notice",
  "pagefind",
  "pagefind-delta",
  "pricing",
  "privacy-policy",
  "profile",
  "resume",
  "scan",
  "search-index",
  "terms-of-service",
  "uploads",
] as const;

/** Why `slug` cannot be a chapter's (one sentence, shown beside the Slug field), or null when it can. */
export function reservedSlugProblem(slug: string): string | null {
  return (RESERVED_SLUGS as readonly string[]).includes(slug) ? `The site itself uses the address /${slug}; choose another slug` : null;
}
