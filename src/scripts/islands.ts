/**
 * The islands' runtime, in the page script's file (issue 33: 1): Astro's `<astro-island>` element
 * and the `client:interaction` directive (src/directives/interaction.ts), which Astro otherwise
 * writes inline into every page that has an island, about 2 KB (brotli) of each page's first
 * response, sent again with every page. Here they come once, in the cached page script, and the
 * build takes Astro's inline copies out of the pages that load this (src/build/island-runtime.ts).
 *
 * Nothing is late for it: an island wakes on the reader's first touch, which the page script
 * answers anyway until the island is up, and the page script runs once the page is parsed (and
 * its first paint presented: decision 0032), as every island then is. Astro's element comes
 * without what the site never uses (src/build/island-runtime-trim.ts). Imported first by
 * Base.astro's script, so both stand before the page script sends its first signal (a notice for
 * the Toasts island).
 *
 * The directive first: the element reads the global `Astro` as soon as it is defined.
 */
import "./island-directive.ts";
import "astro/runtime/server/astro-island.js";
