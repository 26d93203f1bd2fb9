/**
 * Critical CSS (issue 33): every reader page carries, inline, the rules its own elements use, and
 * loads the full stylesheet after its first paint. The first response
 * is then all the first screen needs: no second round trip before the text can paint.
 *
 * The cut is Beasties' (the maintained successor of Critters): it works on the built HTML with no
 * browser, keeping every rule whose selector matches an element of the page (not only those above
 * the fold, so nothing changes when the full sheet arrives, wherever the reader has scrolled),
 * with the @font-face rules those rules use, and the keyframes. We take only the CSS it cuts and
 * edit the page ourselves (the <link> becomes a <style>, and the <link> moves to the end of the
 * body, in a template the page script adds after the first paint: laterSheets):
 * Beasties re-serialises a whole document, which could change an inline script's bytes and so
 * its hash in the page's Content Security Policy; its own loading strategies either add a script
 * or an inline event handler, which that policy refuses. A template the page script reads needs neither.
 *
 * Some rules match states that scripts set before the first paint or soon after it, which the
 * built HTML cannot show: a signed-in reader (html[data-auth]), the level /resume was asked to
 * open (html[data-asked]), a first visit's fallback face
 * (html[data-face]), the rail hidden while scrolling, a subsection with a note, an open dialog or
 * disclosure, the current chapter in the rail (the server marks it), and two rules whose bare
 * pseudo selectors Beasties cannot match to an element: the focus ring (the reader may tab, or
 * open the drawer, whose close button takes the focus, before the sheet comes) and the
 * placeholder's colour. They are kept too (KEPT_STATES).
 *
 * The chapter shell holds no chapter: its cut is made with a specimen chapter in place of the
 * shell's body (every kind of markup a chapter and its subsections can hold), so any chapter the
 * server fills it with finds its rules inline.
 *
 * A closed dialog (the chapter drawer) paints nothing at first, but its rules are kept: the full
 * sheet comes only after the page has loaded (decision 0021), and a reader may open the drawer
 * before that; it then opens as it always looks (about 350 bytes of a chapter's first response).
 */
import fs from "node:fs";
import path from "node:path";
import Beasties from "beasties";
import postcss from "postcss";
import { renderChapterBody, renderOnThisPage } from "../lib/chapter-body.ts";
import { FULL_SHEET_ID, ON_THIS_PAGE_SHELL } from "../lib/page-signals.ts";
import { SHELL_PATH, shellPlaceholders } from "../lib/chapter-shell.ts";

/**
 * A compound's specificity as the sheet without layers raises it (unlayered.ts): `:not(#\#)`,
 * any number of times (before a pseudo-element, after a pseudo-class), which the rules below allow
 * wherever a bare pseudo-class or element stands.
 */
const RAISED = String.raw`(?::not\(#\\#\))*`;

/**
 * Selectors of states the built HTML does not show, kept whether or not they match it; and what
 * Beasties keeps whatever the page holds (a bare `html`, `body` or `:root`, `::before` and
 * `::after`), in their raised form: Beasties matches that against the page's body instead, so
 * `html:not(#\#)` matched nothing, and the page lost its background and colours until the full
 * sheet came, and the pseudo-elements the preflight's box-sizing and borders.
 */
export const KEPT_STATES = [
  /data-auth/,
  /data-asked/,
  /data-face/,
  /data-visible/,
  /data-has-note/,
  /\[open\]/,
  /aria-current/,
  // The drawer's links, which a page other than a chapter's gets from the page script (issue 45: 1).
  /\.drawer-link/,
  new RegExp(String.raw`(^|\s)${RAISED}:focus-visible${RAISED}$`),
  new RegExp(`^${RAISED}::placeholder$`),
  new RegExp(`^(html|body|:root)${RAISED}$`),
  new RegExp(`^${RAISED}::?(before|after)$`),
];

/** Every kind of markup a chapter can hold (src/lib/markup.ts), and subsections with and without a photo. */
const SPECIMEN_CONTENT = [
  "A first paragraph with **bold words**, *a slanted one*, [a page of the site](/about) and [another site](https://example.org).",
  "## A heading",
  "### A smaller heading",
  "> A quotation, set apart.",
  "- a point\n- another point",
  "1. a step\n2. the next step",
  "[Book your first call](cta:schedule)",
  "[Take the scan](cta:assessment)",
  "[Begin](cta:transform)",
  "---",
].join("\n\n");

const specimenPart = (id: number, photo: string | null) => ({
  id,
  slug: `specimen-${id}`,
  title: `Specimen ${id}`,
  content: SPECIMEN_CONTENT,
  photo,
  photoAlt: photo && "A specimen photo",
  order: id,
});
const SPECIMEN_PARTS = [specimenPart(1, "/uploads/0123456789abcdef0123456789abcdef.jpg"), specimenPart(2, null)];

export function specimenBody(): string {
  return renderChapterBody({ content: SPECIMEN_CONTENT, subsections: SPECIMEN_PARTS }, { transformHref: "/" });
}

const STYLESHEET = /<link rel="stylesheet" href="(\/_astro\/[^"]+\.css)">/g;

/** The site's stylesheets a page links: each <link> and the file's path in the site. */
export function linkedSheets(html: string): Array<{ link: string; href: string }> {
  return [...html.matchAll(STYLESHEET)].map((m) => ({ link: m[0], href: m[1]! }));
}

const sheetText = (siteDir: string, href: string) => fs.readFileSync(path.join(siteDir, href), "utf8");

/**
 * The page with its critical CSS inline (the book's faces first) and its stylesheets moved to the
 * end of its body; the page as it was when it links no stylesheet of the site. `cutFrom`: the
 * document to cut the CSS for (the page itself, or the shell with its specimen). `scripted`: the
 * page loads the page script, which adds the sheets after the first paint (laterSheets).
 */
export async function inlineCriticalCss(siteDir: string, html: string, { cutFrom = html, scripted = false } = {}): Promise<string> {
  const sheets = linkedSheets(html);
  if (sheets.length === 0) return html;
  const beasties = new Cutter({
    path: siteDir,
    publicPath: "/",
    pruneSource: false,
    inlineFonts: false,
    preloadFonts: false,
    compress: true,
    reduceInlineStyles: false,
    allowRules: KEPT_STATES,
    logLevel: "warn",
  });
  const cut = await beasties.process(cutFrom);
  const before = new Set(styles(cutFrom));
  const rules = styles(cut)
    .filter((style) => !before.has(style))
    .join("");
  if (!rules) throw new Error("Beasties cut no CSS for a page with a stylesheet.");
  const css = sheets.map(({ href }) => declarations(sheetText(siteDir, href))).join("") + trimmed(beasties.restored(rules));
  let page = html;
  for (const { link } of sheets) page = page.replace(link, "");
  page = page.replace(/<\/head>/, `<style>${css}</style></head>`);
  return page.replace(/<\/body>(?![\s\S]*<\/body>)/, `${laterSheets(scripted, sheets.map(({ link }) => link).join(""))}</body>`);
}

/**
 * Beasties, reading each rule whose selector opens with `:where(` or `:is(`, or styles the root for
 * what it holds (`html:has(`), under a selector it can match (matchable). It matches a selector
 * against the page once it has stripped the pseudo-classes, with a pattern that takes everything
 * from the first functional one to the last `)`: such a selector came out empty (or a bare `html`,
 * which it matches against the body), and its rule was dropped whatever the page held. Tailwind writes its space-y
 * utilities so (`:where(.space-y-2>:not(:last-child))`), and /apply's lists, /assessment's and
 * the in-person form's fields moved apart when the full sheet came (CLS 0.0118 on /apply).
 * In the sheet Beasties reads (readFile, which Beasties lets a subclass replace), each such
 * selector stands as the function's arguments in its place (what an element must match to be
 * styled, as a selector Beasties handles), and the rule is marked; every marked rule the cut
 * keeps is then put back as the sheet has it (restored), so the page gets the sheet's rules,
 * in the sheet's order.
 */
class Cutter extends Beasties {
  readonly #originals: string[] = [];

  override readFile(filename: string): string {
    const root = postcss.parse(fs.readFileSync(filename, "utf8"));
    root.walkRules((rule) => {
      if (!rule.selectors.some((selector) => OPENING_FUNCTION.test(selector))) return;
      this.#originals.push(rule.toString());
      rule.selectors = rule.selectors.flatMap(matchable);
      rule.append({ prop: MARK, value: String(this.#originals.length - 1) });
    });
    return root.toString();
  }

  /** The cut with each marked rule as the sheet has it. */
  restored(cut: string): string {
    const root = postcss.parse(cut);
    const marked: postcss.Declaration[] = [];
    root.walkDecls(MARK, (decl) => void marked.push(decl));
    for (const decl of marked) decl.parent!.replaceWith(postcss.parse(this.#originals[Number(decl.value)]!));
    return root.toString();
  }
}

/** A selector opening with `:where(` or `:is(`, or one that styles the root (or the body) for what it holds. */
const OPENING_FUNCTION = /^(?::(?:where|is)|(?:html|:root|body):has)\(/;
const MARK = "--critical-css-rule";

/**
 * What an element must match for `selector` to style it, as selectors Beasties handles:
 * - with no leading `:where(` or `:is(`: each of the function's arguments in its place
 *   (`:where(.a>.b):hover` is `.a>.b:hover`);
 * - the root styled for what it holds (`html:has(.scan-bar)`, which Beasties took for a bare
 *   `html`, and matched that against the body, which no rule of that form then matched): what
 *   it holds. One that styles elements inside it (a combinator after the `:has()`) stays as it is.
 */
export function matchable(selector: string): string[] {
  const open = OPENING_FUNCTION.exec(selector);
  if (!open) return [selector];
  let depth = 1;
  let close = open[0].length;
  const commas: number[] = [];
  for (; close < selector.length && depth > 0; close++) {
    const char = selector[close];
    if (char === "\\") close++;
    else if (char === "(") depth++;
    else if (char === ")") depth--;
    else if (char === "," && depth === 1) commas.push(close);
  }
  // (Unbalanced, or empty: as it stands.)
  if (depth > 0 || close - 1 === open[0].length) return [selector];
  const holds = open[0].endsWith(":has(");
  const rest = selector.slice(close);
  if (holds && !/^[^\s>+~]*$/.test(rest.replace(/\([^)]*\)/g, ""))) return [selector];
  const starts = [open[0].length, ...commas.map((comma) => comma + 1)];
  const ends = [...commas, close - 1];
  return starts.flatMap((start, i) => {
    const argument = selector.slice(start, ends[i]).trim();
    return holds ? matchable(argument.replace(/^[>+~]\s*/, "")) : matchable(argument + rest);
  });
}

/**
 * Where the full sheet's links go, at the end of the body: a page with the page script gets them in
 * a template the script adds after the first paint (src/scripts/page.ts), which the first paint
 * then owes nothing to (issue 33: 2), and again in a <noscript> for a browser without scripts; a
 * page without it (none of the reader's today) links the sheet there.
 */
function laterSheets(scripted: boolean, links: string): string {
  if (!scripted) return links;
  return `<template id="${FULL_SHEET_ID}">${links}</template><noscript>${links}</noscript>`;
}

/** A page that keeps its stylesheets as they are (the admin panel) with its sheets' declarations inline, as every page has them. */
export function inlineDeclarations(siteDir: string, html: string): string {
  const declared = linkedSheets(html)
    .map(({ href }) => declarations(sheetText(siteDir, href)))
    .join("");
  return declared ? html.replace(/<\/head>/, `<style>${declared}</style></head>`) : html;
}

/**
 * A sheet's document-wide declarations: its @font-face and @property rules. Each page carries them
 * inline, and the sheets then no longer do (withoutDeclarations).
 * - The faces: Beasties keeps the faces of families it can name in the rules it keeps, and the
 *   book's are named through custom properties (--font-book), so it kept none, and the text
 *   painted in a fallback of other metrics until the sheet came. And a face declared again by the
 *   sheet would be a new face to the browser, loaded and swapped in again.
 * - The registered custom properties (Tailwind's --tw-*, each with an initial value): registering
 *   one gives every element of the page a new computed value, so a sheet that brought those the
 *   inline CSS lacked restyled and laid out the whole page when it arrived (56-85 ms on a phone at
 *   4x, in the way of a tap then: issue 33: 3). Declared from the first response, the sheet's
 *   arrival changes no element's style.
 */
export function declarations(css: string): string {
  const rules: string[] = [];
  postcss.parse(css).walkAtRules(/^(font-face|property)$/, (rule) => void rules.push(rule.toString()));
  return rules.join("");
}

/** The sheet without its @font-face and @property rules (each page declares them inline: declarations). */
export function withoutDeclarations(css: string): string {
  const root = postcss.parse(css);
  root.walkAtRules(/^(font-face|property)$/, (rule) => void rule.remove());
  return root.toString();
}

/**
 * The cut (from the sheet without layers: unlayered.ts) without Tailwind's fallback for browsers
 * without @property (an @supports block only such browsers pass, which sets every --tw-* property
 * on every element: they get it from the full sheet), and without the @property rules it holds
 * (the page declares all of the sheet's: declarations).
 */
export function trimmed(css: string): string {
  const root = postcss.parse(css);
  const onlyTailwindDefaults = (rule: postcss.AtRule) =>
    rule.nodes?.every((node) => node.type === "rule" && node.nodes.every((decl) => decl.type === "decl" && decl.prop.startsWith("--tw-")));
  root.walkAtRules("supports", (rule) => {
    if (onlyTailwindDefaults(rule)) rule.remove();
  });
  root.walkAtRules("property", (rule) => void rule.remove());
  return root.toString();
}

function styles(html: string): string[] {
  return [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]!);
}

/** The document the chapter shell's CSS is cut from: the shell with the specimen chapter as its body. */
export function shellSpecimen(shell: string): string {
  const { shellBody } = shellPlaceholders();
  if (!shell.includes(shellBody) || !shell.includes(ON_THIS_PAGE_SHELL)) throw new Error(`${SHELL_PATH} does not hold the chapter body and "On this page" placeholders.`);
  return shell.replace(shellBody, specimenBody()).replaceAll(ON_THIS_PAGE_SHELL, renderOnThisPage(SPECIMEN_PARTS));
}
