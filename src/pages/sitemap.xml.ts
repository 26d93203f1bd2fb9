/**
 * The sitemap of public pages only: the Operator chapters and the open pages. Locked chapters,
 * /resume, /profile and /admin are never listed.
 */
import type { APIRoute } from "astro";
import { levelOf } from "../lib/levels.ts";
import { readSnapshot } from "../server/build/snapshot.ts";

export const PUBLIC_PAGES = ["/", "/apply", "/assessment", "/in-person", "/about", "/privacy-policy", "/terms-of-service", "/disclaimer"];

export const GET: APIRoute = ({ site }) => {
  const base = site ?? new URL("http://localhost:4321");
  const open = readSnapshot().chapters.filter((chapter) => levelOf(chapter.level) === "Operator");
  const paths = [...PUBLIC_PAGES, ...open.map((chapter) => `/${chapter.slug}`)];
  const urls = paths.map((path) => `  <url><loc>${new URL(path, base).href}</loc></url>`).join("\n");
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  return new Response(body, { headers: { "Content-Type": "application/xml; charset=utf-8" } });
};
