/**
 * Where lead webhooks run: in production (on Netlify, or behind an https SITE_URL) receivers must
 * be public https addresses; in development a receiver on localhost is fine. And the site's own
 * address, for the link to a submission.
 */
import { config } from "../config.ts";

export function webhooksInProduction(): boolean {
  const settings = config();
  return settings.platform !== "local" || (settings.siteUrl?.startsWith("https://") ?? false);
}

/** SITE_URL (or Netlify's URL), else the address the request came to. */
export function siteAddress(request?: Request): string {
  return config().siteUrl ?? (request ? new URL(request.url).origin : "http://localhost:4321");
}
