import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { chapterPage } from "../../src/server/pages/chapter-page.ts";

export default serve((request, context) => chapterPage(request, context.params.slug ?? ""));

// Every chapter page, at /{slug}. Static files win (preferStatic), so /apply, /about and the other
// built pages are served as they are. On Netlify a function's path comes before redirects, so the
// single-segment redirect sources of netlify.toml are excluded here (the short addresses, and the
// chapter shell and missing-chapter view, which are not pages of their own);
// tests/api/routing.test.ts keeps the two lists in step.
export const config: Config = {
  path: "/:slug",
  preferStatic: true,
  excludedPath: ["/scan", "/login", "/pricing", "/chapter-shell", "/chapter-shell.html", "/chapter-not-found", "/chapter-not-found.html"],
};
