/**
 * The pages of the built site that the server answers with or fills in: the chapter shell, the
 * missing-chapter view, the 404 page and the page notice. The local host hands in the site it
 * serves (and swaps it on a rebuild). On Netlify, functions are bundled after the build, and
 * netlify.toml's included_files copies these pages of the publish folder into the bundle, so a
 * function reads them from its own deploy: no HTTP round trip, never a page of another deploy.
 */
import fs from "node:fs";
import path from "node:path";

/** The pages a chapter function needs (tests/api/routing.test.ts checks netlify.toml includes them). */
export const FUNCTION_PAGES = ["/chapter-shell", "/chapter-not-found", "/404", "/page-notice"] as const;
export type FunctionPage = (typeof FUNCTION_PAGES)[number];

/** netlify.toml's publish folder, as the bundle holds it (checked by the same test). */
export const PUBLISH_FOLDER = "dist";

type Source = (pathname: string) => string | null;

let local: Source | undefined;
const bundled = new Map<string, string | null>();

/** The local host (and tests) read pages straight from the site they serve. */
export function useSitePages(source: Source | undefined): void {
  local = source;
}

export function sitePage(pathname: FunctionPage): string | null {
  if (local) return local(pathname);
  if (!bundled.has(pathname)) {
    // A function's bundle is unpacked in LAMBDA_TASK_ROOT (its working directory on Netlify).
    const root = process.env.LAMBDA_TASK_ROOT || process.cwd();
    let page: string | null = null;
    try {
      page = fs.readFileSync(path.join(root, PUBLISH_FOLDER, `${pathname.slice(1)}.html`), "utf8");
    } catch {
      page = null;
    }
    bundled.set(pathname, page);
  }
  return bundled.get(pathname)!;
}
