/**
 * The reader's sheet without cascade layers (issue 33: 3). Chromium takes a stylesheet that holds
 * any @layer rule, added to a page that is already drawn, as a change of the page's layer order:
 * it restyles every element from scratch and lays the whole page out again, even when no rule of
 * the sheet changes anything (measured on a chapter at 4x CPU: a sheet of one `@layer utilities`
 * rule that matches nothing, 36 ms of style and 55 ms of layout, all 345 objects; the same rule
 * outside a layer, 1 ms of style for 5 elements). The full sheet comes after the first paint
 * (decision 0021), so a tap that landed on its arrival waited for all of that.
 *
 * Tailwind writes its CSS in layers (theme, base, components, utilities). Reader pages get a copy
 * of the sheet with its layers resolved by @csstools/postcss-cascade-layers, the maintained
 * polyfill: each layer's selectors get the specificity that keeps the layers' order (`:not(#\#)`
 * repeated), so every rule wins where it won before. The page's inline CSS is cut from that copy,
 * and the copy is what the page adds after its first paint. The admin panel keeps the layered
 * sheets, which its own sheet's layers are ordered with. Brotli takes most of what the selectors
 * add: 7.2 KB of the layered sheet against 7.6 KB for this copy (decision 0024).
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import cascadeLayers from "@csstools/postcss-cascade-layers";
import postcss from "postcss";
import { linkedSheets } from "./critical-css.ts";

/** `css` with its cascade layers expressed in specificity, and no @layer rule left. */
export function withoutLayers(css: string): string {
  const out = postcss([cascadeLayers()]).process(css, { from: undefined }).css;
  if (/@layer\b/.test(out)) throw new Error("A sheet kept @layer rules after its layers were resolved.");
  return out;
}

/**
 * The page with each of the site's stylesheets it links replaced by its copy without layers,
 * written next to it once (`copies`: each sheet's copy so far, by address). The copy is named by
 * its own content, so a browser never keeps an old copy under a new sheet's name.
 */
export function linkUnlayered(siteDir: string, html: string, copies: Map<string, string>): string {
  let page = html;
  for (const { link, href } of linkedSheets(html)) {
    let copy = copies.get(href);
    if (!copy) {
      const css = withoutLayers(fs.readFileSync(path.join(siteDir, href), "utf8"));
      const hash = createHash("sha256").update(css).digest("base64url").slice(0, 8);
      copy = `${href.replace(/\.css$/, "")}.unlayered.${hash}.css`;
      fs.writeFileSync(path.join(siteDir, copy), css);
      copies.set(href, copy);
    }
    page = page.replace(link, link.replace(href, copy));
  }
  return page;
}
