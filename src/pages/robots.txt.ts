/** robots.txt: everything public may be crawled; the private pages also carry noindex. */
import type { APIRoute } from "astro";

export const GET: APIRoute = ({ site }) => {
  const sitemap = new URL("/sitemap.xml", site ?? "http://localhost:4321").href;
  const body = ["User-agent: *", "Disallow: /api/", "", `Sitemap: ${sitemap}`, ""].join("\n");
  return new Response(body, { headers: { "Content-Type": "text/plain; charset=utf-8" } });
};
