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
