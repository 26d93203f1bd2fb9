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

/** Whether one of the page's module scripts defines the island element (read once per file). */
function loadsRuntime(siteDir: string, html: string, seen: Map<string, boolean>): boolean {
  return [...html.matchAll(MODULE_SCRIPT)].some(([, src]) => {
    let defines = seen.get(src!);
    if (defines === undefined) {
      const file = path.join(siteDir, src!);
      defines = fs.existsSync(file) && DEFINES_ISLAND.test(fs.readFileSync(file, "utf8"));
      seen.set(src!, defines);
    }
    return defines;
  });
}

/** A function of the built site: the page without Astro's inline runtime where its own script brings it. */
export function islandRuntimeFromPageScript(siteDir: string): (html: string) => string {
  const seen = new Map<string, boolean>();
  return (html) => {
    if (!html.includes("<astro-island") || !loadsRuntime(siteDir, html, seen)) return html;
    return html.replace(`<script>${islandScript}</script>`, "").replace(INLINE_DIRECTIVE, "");
  };
}
