/**
 * The page script after the first paint (issue 45: 3, decision 0032). Astro links it as a module
 * script at the end of the body, which the browser fetches as soon as its preload scanner sees the
 * tag and runs before the page's first paint whenever the file is in by the end of the parse: its
 * run (the island element defined, every handler added) then stood between the first response and
 * the first paint, and Lighthouse counted its request among the paint's. The build takes the tag
 * out and names the file on `<html data-script>` instead; the early script
 * (src/layouts/early-script.ts) imports it once the first contentful paint is presented. A browser
 * without scripts loses nothing: it never ran the page script.
 */
import { PAGE_SCRIPT_ATTRIBUTE } from "../lib/page-signals.ts";

/** `html` with its page script (`src`, src/build/island-runtime.ts pageScriptFinder) imported after the first paint rather than linked. */
export function laterPageScript(html: string, src: string): string {
  const tag = `<script type="module" src="${src}"></script>`;
  if (!html.includes(tag)) throw new Error(`The page does not link its page script ${src} as Astro does`);
  return html.replace(tag, "").replace(/<html\b/, `<html ${PAGE_SCRIPT_ATTRIBUTE}="${src}"`);
}
