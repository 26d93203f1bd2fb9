/**
 * Public site configuration, read once at build time from `import.meta.env` (Astro/Vite inline
 * `PUBLIC_*` variables into the pages and islands that use them).
 *
 * | variable                   | what it is                                                  | default (placeholder)                         |
 * |----------------------------|-------------------------------------------------------------|-----------------------------------------------|
 * | PUBLIC_SCHEDULE_URL        | the external scheduling page for the free first call        | https://cal.com/the-system/first-call         |
 * | PUBLIC_ARCHITECT_CART_URL  | the external scheduling cart for the Architect tier         | https://cal.com/the-system/architect          |
 * | PUBLIC_CONTACT_EMAIL       | where members write for help (/resume's 'Contact support')  | support@the-system.example                    |
 *
 * The two addresses open in a new tab (rel=noopener). A value must be an absolute http(s) address
 * (and the contact an email address); anything else fails the build with the variable named, so a
 * typo never ships a dead button.
 */

export const SITE_NAME = "The System";

export const DEFAULT_DESCRIPTION =
  "A private programme for reading, and then rewriting, your own mental operating system.";

const DEFAULT_SCHEDULE_URL = "https://cal.com/the-system/first-call";
const DEFAULT_ARCHITECT_CART_URL = "https://cal.com/the-system/architect";
const DEFAULT_CONTACT_EMAIL = "support@the-system.example";

function externalUrl(name: string, value: string | undefined, fallback: string): string {
  const chosen = value?.trim() || fallback;
  let parsed: URL;
  try {
    parsed = new URL(chosen);
  } catch {
    throw new Error(`${name} must be an absolute address such as ${fallback}, not "${chosen}".`);
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    throw new Error(`${name} must start with https:// (it is "${chosen}").`);
  }
  return parsed.href;
}

function emailAddress(name: string, value: string | undefined, fallback: string): string {
  const chosen = value?.trim() || fallback;
  if (!/^[^\s@<>()"',;:]+@[^\s@<>()"',;:]+\.[a-z]{2,}$/i.test(chosen)) {
    throw new Error(`${name} must be an email address such as ${fallback}, not "${chosen}".`);
  }
  return chosen;
}

type Env = Record<string, string | undefined>;
// Astro/Vite inline import.meta.env; plain Node (server code, tests) reads process.env instead.
const env: Env =
  (import.meta as ImportMeta & { env?: Env }).env ?? (typeof process === "undefined" ? {} : (process.env as Env));

/** The scheduling page for the free first call ('Claim Your Call', 'Claim Your Free Session'). */
export const SCHEDULE_URL = externalUrl("PUBLIC_SCHEDULE_URL", env.PUBLIC_SCHEDULE_URL, DEFAULT_SCHEDULE_URL);

/** The scheduling cart for the Architect tier (the 'Apply' button on /apply). */
export const ARCHITECT_CART_URL = externalUrl(
  "PUBLIC_ARCHITECT_CART_URL",
  env.PUBLIC_ARCHITECT_CART_URL,
  DEFAULT_ARCHITECT_CART_URL,
);

/** Where members write for help: /resume's 'Contact support' names it. */
export const CONTACT_EMAIL = emailAddress("PUBLIC_CONTACT_EMAIL", env.PUBLIC_CONTACT_EMAIL, DEFAULT_CONTACT_EMAIL);
