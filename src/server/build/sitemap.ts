/**
 * The sitemap of public pages only: the open pages and the Operator chapters. Locked chapters,
 * drafts, /resume, /profile and /admin are never listed. Written with the search index after the
 * pages (site-builder.ts `finish`), so a change to the chapter list rewrites it without building
 * the pages again (issue 45: 4; decision 0029: no page holds the list).
 */
import fs from "node:fs";
import path from "node:path";
import { levelOf } from "../../lib/levels.ts";
import type { ContentSnapshot } from "./snapshot.ts";

export const PUBLIC_PAGES = ["/", "/apply", "/assessment", "/in-person", "/about", "/privacy-policy", "/terms-of-service", "/disclaimer"];

/** The site's address, as astro.config.mjs takes it. */
export const siteUrl = () => process.env.SITE_URL || "http://localhost:4321";

export function sitemapXml(chapters: ContentSnapshot["chapters"], base: string): string {
  const open = chapters.filter((chapter) => levelOf(chapter.level) === "Operator");
  const paths = [...PUBLIC_PAGES, ...open.map((chapter) => `/${chapter.slug}`)];
  const urls = paths.map((page) => `  <url><loc>${new URL(page, base).href}</loc></url>`).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}

export function writeSitemap(siteDir: string, chapters: ContentSnapshot["chapters"]): void {
  fs.writeFileSync(path.join(siteDir, "sitemap.xml"), sitemapXml(chapters, siteUrl()));
}
