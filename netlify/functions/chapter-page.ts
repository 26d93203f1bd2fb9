import type { Config, Context } from "@netlify/functions";
import { chapterPage } from "../../src/server/pages/chapter-page.ts";

export default (request: Request, context: Context) => chapterPage(request, context.params.slug ?? "");

// Static files win (preferStatic): this answers /{slug} only when no page was prerendered for it.
// On Netlify a function's path comes before redirects, so the single-segment redirect sources of
// netlify.toml are excluded here; tests/api/routing.test.ts keeps the two lists in step.
export const config: Config = {
  path: "/:slug",
  preferStatic: true,
  excludedPath: ["/scan", "/login", "/pricing"],
};
