/** Lowercase letters, digits and single hyphens, no hyphen at either end. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * The slug the create form proposes for a title (SPEC.md section 5): lowercased, each run of
 * non-alphanumeric characters replaced by a hyphen, leading and trailing hyphens trimmed.
 */
export function slugify(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/**
 * Addresses of the site's own pages, redirects and folders: a chapter at /{slug} would never be
 * reached there (tests/api/routing.test.ts keeps this list in step with src/pages, netlify.toml's
 * redirects and the function paths).
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
  "in-person",
  "index",
  "login",
  "pricing",
  "privacy-policy",
  "profile",
  "resume",
  "scan",
  "terms-of-service",
  "uploads",
] as const;

/** Why `slug` cannot be a chapter's, or null when it can. */
export function reservedSlugProblem(slug: string): string | null {
  return (RESERVED_SLUGS as readonly string[]).includes(slug)
    ? `Slug: "${slug}" is the address of a page of the site. Choose another; these are taken: ${RESERVED_SLUGS.join(", ")}.`
    : null;
}
