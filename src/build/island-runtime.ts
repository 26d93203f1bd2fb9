/**
 * Astro writes its island runtime (the `<astro-island>` element) and each client directive's
 * script inline into every page that has an island: on a chapter page about 5.4 KB of script,
 * 2 KB of its first response as served, and sent again with every page. The page script carries
 * them instead (src/scripts/islands.ts), once, in a file the browser keeps; this takes Astro's
 * copies out of each page that loads that file (issue 33: 1). A page that does not (the admin
 * panel, say) keeps them, and so does the inline copy of any other directive (client:load),
 * which registers itself wherever it runs.
 */
import fs from "node:fs";
import path from "node:path";
import islandScript from "astro/runtime/server/astro-island.prebuilt.js";

/** What marks the file that defines the element (it keeps this text whatever the minifier does). */
const DEFINES_ISLAND = /customElements\.define\(\s*["'`]astro-island["'`]/;
/** Astro's inline copy of the `client:interaction` directive (its registration ends every copy). */
const INLINE_DIRECTIVE = /<script>(?:(?!<\/script>)[\s\S])*?\(self\.Astro\|\|\(self\.Astro=\{\}\)\)\.interaction=[\w$]+;window\.dispatchEvent\(new Event\("astro:interaction"\)\);\}\)\(\);\s*<\/script>/g;
const MODULE_SCRIPT = /<script type="module" src="(\/[^"]+\.js)"><\/script>/g;

/**
 * A function of the built site: the address of the page script (src/scripts/page.ts) a page loads,
 * if it loads it, known by the island element it brings (src/scripts/islands.ts): the page's module
 * script that defines it. Each file is read once.
 */
export function pageScriptFinder(siteDir: string): (html: string) => string | undefined {
  const seen = new Map<string, boolean>();
  const defines = (src: string) => {
    let found = seen.get(src);
    if (found === undefined) {
      const file = path.join(siteDir, src);
      found = fs.existsSync(file) && DEFINES_ISLAND.test(fs.readFileSync(file, "utf8"));
      seen.set(src, found);
    }
    return found;
  };
  return (html) => [...html.matchAll(MODULE_SCRIPT)].map(([, src]) => src!).find(defines);
}

/** The page without Astro's inline runtime, where the page script brings it (`pageScriptOf`: pageScriptFinder). */
export function withoutInlineRuntime(html: string, pageScriptOf: (html: string) => string | undefined): string {
  if (!html.includes("<astro-island") || pageScriptOf(html) === undefined) return html;
  return html.replace(`<script>${islandScript}</script>`, "").replace(INLINE_DIRECTIVE, "");
}
