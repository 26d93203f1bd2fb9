/**
 * The `client:interaction` integration (issue 13), build-time code:
 * - registers the directive (src/directives/interaction.ts): islands that load and hydrate when
 *   the reader first needs them;
 * - gives every built page that has such islands a `<link rel="prefetch">` for each file they
 *   will load (component, renderer and all they import; not the Notebook's), so the browser fetches them into its
 *   cache at idle without running them, and a waking island costs no round trip on a slow
 *   network. The links wait in a `<template>` until the page has loaded (the page script adds
 *   them): in the HTML itself they were fetched at once, and on a slow line they held back the
 *   first paint (Lighthouse mobile LCP 2.1-2.3 s with them, 1.7 s without). A page with the
 *   chapter navigator also preloads, from the same template, the script that puts a level's whole
 *   list in (src/scripts/chapter-lists-view.ts): a reader who touches the page reaches for the
 *   lists, whose data is then on its way (src/scripts/page.ts). Asked for only once the data had
 *   come, the script came 0.4 s after it on a phone's line (4x phone, 1.6 Mbps: issue 45: 2); a
 *   prefetch, at the lowest priority, waited behind the islands' files for as long.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AstroIntegration } from "astro";
import { DRAWER_LIST_ID, ISLAND_FILES_ID, WAKE_NOTEBOOK } from "../lib/page-signals.ts";

/** Every file a module imports statically, recursively, as site paths ("/_astro/x.js"). */
export function moduleClosure(siteDir: string, roots: readonly string[]): string[] {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = fs.readFileSync(path.join(siteDir, file), "utf8");
    for (const m of source.matchAll(/(?:from|import)\s*["'](\.{1,2}\/[^"']+\.js)["']/g)) {
      queue.push(path.posix.join(path.posix.dirname(file), m[1]!));
    }
  }
  return [...seen];
}

/** The built chapter-lists-view script (a classic script of its own, which the page script loads by address), as a site path. */
export function listsViewFile(siteDir: string): string | null {
  const dir = path.join(siteDir, "_astro");
  const name = fs.existsSync(dir) ? fs.readdirSync(dir).find((file) => /^chapter-lists-view-[\w-]+\.js$/.test(file)) : undefined;
  return name ? `/_astro/${name}` : null;
}

/**
 * The page with a prefetch link for every file its `client:interaction` islands load, except the
 * files its other islands load at once anyway (/assessment's scan brings React itself), and, on a
 * page with the chapter navigator, a preload of the script that shows the lists (`listsView`).
 */
export function withIslandPrefetch(siteDir: string, html: string, listsView = listsViewFile(siteDir)): string {
  const later = new Set<string>();
  const now = new Set<string>();
  for (const island of html.matchAll(/<astro-island\b[^>]*>/g)) {
    // The notebook's files load when a reader reaches for a Note, never before (issue 32).
    if (island[0].includes(`&quot;value&quot;:&quot;${WAKE_NOTEBOOK}&quot;`)) continue;
    const roots = /\sclient="interaction"/.test(island[0]) ? later : now;
    for (const url of island[0].matchAll(/\s(?:component|renderer)-url="(\/[^"]+)"/g)) roots.add(url[1]!);
  }
  if (later.size === 0) return html;
  const loaded = new Set(moduleClosure(siteDir, [...now]));
  const links = moduleClosure(siteDir, [...later])
    .filter((file) => !loaded.has(file))
    .map((file) => `<link rel="prefetch" href="${file}" as="script" crossorigin>`)
    .join("");
  // (A classic script, asked for without CORS; first, at a script's priority.)
  const lists = listsView && html.includes(`id="${DRAWER_LIST_ID}"`) ? `<link rel="preload" href="${listsView}" as="script">` : "";
  // Inert in a <template> until the page script adds them once the page has loaded
  // (src/scripts/page.ts): fetched earlier, they would share the line with the first paint.
  return html.replace("</head>", `<template id="${ISLAND_FILES_ID}">${lists}${links}</template></head>`);
}

export function interactionIslands(): AstroIntegration {
  return {
    name: "client-interaction",
    hooks: {
      "astro:config:setup": ({ addClientDirective }) => {
        addClientDirective({ name: "interaction", entrypoint: "./src/directives/interaction.ts" });
      },
      "astro:build:done": ({ dir }) => {
        const siteDir = fileURLToPath(dir);
        const listsView = listsViewFile(siteDir);
        for (const entry of fs.readdirSync(siteDir, { recursive: true, withFileTypes: true })) {
          if (!entry.isFile() || !entry.name.endsWith(".html")) continue;
          const file = path.join(entry.parentPath, entry.name);
          const html = fs.readFileSync(file, "utf8");
          const next = withIslandPrefetch(siteDir, html, listsView);
          if (next !== html) fs.writeFileSync(file, next);
        }
      },
    },
  };
}
