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

/**
 * The site's configured address: SITE_URL (or Netlify's URL), else the local host's own
 * (http://localhost:{PORT}, README's default). Never the address a request came to: its Host
 * header is the caller's to choose, and a link built from it would send the admin who opens a
 * lead anywhere the caller liked.
 */
export function siteAddress(): string {
  const settings = config();
  return settings.siteUrl ?? `http://localhost:${settings.port}`;
}
