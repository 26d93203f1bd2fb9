/**
 * The first response (issue 33), an Astro integration that runs once the site is built, after
 * the other integrations' edits: each reader page carries the CSS its elements use inline and
 * loads the full sheet at its end (critical-css.ts), imports its page script after the first paint
 * (page-script-later.ts), and its policy names only its own inline scripts (script-hashes.ts),
 * which no longer include Astro's island runtime where the page script brings it
 * (island-runtime.ts), and links the sheets without their cascade layers (unlayered.ts), which it
 * adds after the first paint. The admin panel is the operator's, not a
 * reader's first view: it keeps its stylesheets where they are. Every page declares the book's
 * faces and the sheets' registered properties inline, and the sheets then no longer do
 * (critical-css.ts says why).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AstroIntegration } from "astro";
import { SHELL_PATH } from "../lib/chapter-shell.ts";
import { inlineCriticalCss, inlineDeclarations, linkedSheets, shellSpecimen, withoutDeclarations } from "./critical-css.ts";
import { pageScriptFinder, withoutInlineRuntime } from "./island-runtime.ts";
import { laterPageScript } from "./page-script-later.ts";
import { ownScriptHashes } from "./script-hashes.ts";
import { linkUnlayered } from "./unlayered.ts";

const UNTOUCHED = new Set(["admin.html"]);

export function firstResponse(): AstroIntegration {
  return {
    name: "first-response",
    hooks: {
      "astro:build:done": async ({ dir, logger }) => {
        const siteDir = fileURLToPath(dir);
        const sheets = new Set<string>();
        const unlayered = new Map<string, string>();
        let pages = 0;
        const pageScriptOf = pageScriptFinder(siteDir);
        for (const entry of fs.readdirSync(siteDir, { recursive: true, withFileTypes: true })) {
          if (!entry.isFile() || !entry.name.endsWith(".html")) continue;
          const file = path.join(entry.parentPath, entry.name);
          const relative = path.relative(siteDir, file);
          const html = fs.readFileSync(file, "utf8");
          for (const { href } of linkedSheets(html)) sheets.add(href);
          let page = ownScriptHashes(withoutInlineRuntime(html, pageScriptOf));
          if (UNTOUCHED.has(relative)) page = inlineDeclarations(siteDir, page);
          else {
            page = linkUnlayered(siteDir, page, unlayered);
            const pageScript = pageScriptOf(page);
            page = await inlineCriticalCss(siteDir, page, {
              cutFrom: `/${relative.replace(/\.html$/, "")}` === SHELL_PATH ? shellSpecimen(page) : page,
              scripted: pageScript !== undefined,
            });
            if (pageScript) page = laterPageScript(page, pageScript);
          }
          if (page !== html) {
            fs.writeFileSync(file, page);
            pages++;
          }
        }
        for (const href of [...sheets, ...unlayered.values()]) {
          const file = path.join(siteDir, href);
          fs.writeFileSync(file, withoutDeclarations(fs.readFileSync(file, "utf8")));
        }
        logger.info(`First responses made for ${pages} pages; ${sheets.size + unlayered.size} stylesheets declare no faces or properties of their own.`);
      },
    },
  };
}
