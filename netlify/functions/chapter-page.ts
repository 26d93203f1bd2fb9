import type { Config } from "@netlify/functions";
import { serve } from "../../src/server/runtime/serve.ts";
import { chapterPage } from "../../src/server/pages/chapter-page.ts";
import { previewPage, PREVIEW_PATH } from "../../src/server/pages/preview-page.ts";

// The pages rendered into the built chapter shell: every chapter at /{slug}, and the admin's
// preview of a chapter as a reader of a tier would see it (never cached, noindex).
export default serve((request) => {
  const { pathname } = new URL(request.url);
  return pathname.startsWith(PREVIEW_PATH) ? previewPage(request, pathname.slice(PREVIEW_PATH.length)) : chapterPage(request, pathname.slice(1));
});

// Static files win (preferStatic), so /apply, /about and the other built pages are served as they
// are. On Netlify a function's path comes before redirects, so the single-segment redirect sources
// of netlify.toml are excluded here (the short addresses, and the chapter shell and missing-chapter
// view, which are not pages of their own); tests/api/routing.test.ts keeps the two lists in step.
// (Netlify reads this config without running the file: literal values only.)
export const config: Config = {
  path: ["/:slug", "/admin/preview/:id"],
  preferStatic: true,
  excludedPath: ["/scan", "/login", "/pricing", "/chapter-shell", "/chapter-shell.html", "/chapter-not-found", "/chapter-not-found.html", "/page-notice", "/page-notice.html"],
};
