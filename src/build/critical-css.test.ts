import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { declarations, inlineCriticalCss, inlineDeclarations, matchable, trimmed, withoutDeclarations } from "./critical-css.ts";

const site = fs.mkdtempSync(path.join(os.tmpdir(), "critical-css-"));
afterAll(() => fs.rmSync(site, { recursive: true, force: true }));
fs.mkdirSync(path.join(site, "_astro"));
const FACE = `@font-face{font-family:"Book";src:url(/_astro/book.woff2)format("woff2")}`;
const PROPERTY = `@property --tw-unread{syntax:"*";inherits:false;initial-value:0}`;
const SHEET =
  FACE +
  PROPERTY +
  `.used{color:red}.unused{color:blue}html[data-auth="in"] .anon-only{display:none}.drawer-link{color:green}`;
fs.writeFileSync(path.join(site, "_astro/site.css"), SHEET);
const LINK = `<link rel="stylesheet" href="/_astro/site.css">`;
const page = (body: string) => `<!DOCTYPE html><html><head><title>t</title>${LINK}</head><body>${body}</body></html>`;

describe("inlineCriticalCss", () => {
  it("inlines the faces and the rules the page uses, states scripts set included, and puts the sheet at the end of the body, for the page script to add", async () => {
    const script = `<script type="module" src="/_astro/page.js"></script>`;
    const out = await inlineCriticalCss(site, page(`<p class="used anon-only">x</p><dialog><a class="drawer-link">y</a></dialog>${script}`), { scripted: true });
    const [head, body] = out.split("<body>");
    expect(head).not.toContain(LINK);
    const css = /<style>([\s\S]*)<\/style>/.exec(head!)![1]!;
    expect(css).toContain('@font-face{font-family:"Book"');
    // Every registered property of the sheet, whether or not the page's own rules read it.
    expect(css).toContain("@property --tw-unread");
    expect(css).toContain(".used{color:red}");
    // A signed-in reader's state, which the built page cannot show, is kept.
    expect(css).toContain('html[data-auth="in"] .anon-only');
    expect(css).not.toContain(".unused");
    // A closed dialog's rules too: the reader may open it before the sheet comes.
    expect(css).toContain(".drawer-link");
    // For the page script to add after the first paint, and for a browser without scripts.
    expect(body).toMatch(new RegExp(`${script}<template id="full-sheet">${LINK}</template><noscript>${LINK}</noscript></body></html>$`));
  });

  it("links the sheet at the end of the body of a page that does not load the page script (nothing would add it)", async () => {
    const out = await inlineCriticalCss(site, page(`<p class="used">x</p>`));
    expect(out).toMatch(new RegExp(`<p class="used">x</p>${LINK}</body></html>$`));
  });

  it("cuts the CSS from another document when asked (the chapter shell's specimen)", async () => {
    const out = await inlineCriticalCss(site, page("<p>shell</p>"), { cutFrom: page(`<p class="used">specimen</p>`) });
    expect(out).toContain(".used{color:red}");
    expect(out).toContain("<p>shell</p>");
    expect(out).not.toContain("specimen");
  });

  it("keeps the root's, the body's, the bare pseudo-elements' and the kept states' rules in their form without layers, as it keeps them with layers", async () => {
    const unlayered = String.raw`html:not(#\#):not(#\#){background:black}body:not(#\#){margin:0}:not(#\#)::before,:not(#\#):after{box-sizing:border-box}:not(#\#)::placeholder{color:gray}:focus-visible:not(#\#):not(#\#){outline:solid}.gone:not(#\#){color:red}`;
    fs.writeFileSync(path.join(site, "_astro/unlayered.css"), unlayered);
    const out = await inlineCriticalCss(site, page("<p>x</p>").replace("site.css", "unlayered.css"));
    const css = /<style>([\s\S]*)<\/style>/.exec(out)![1]!;
    expect(css).toContain("{background:black}");
    expect(css).toContain("{margin:0}");
    expect(css).toContain("{box-sizing:border-box}");
    expect(css).toContain("::placeholder{color:gray}");
    expect(css).toContain("{outline:solid}");
    expect(css).not.toContain(".gone");
  });

  it("leaves a page that links no stylesheet of the site as it is", async () => {
    const bare = "<html><head></head><body><p>x</p></body></html>";
    expect(await inlineCriticalCss(site, bare)).toBe(bare);
  });
});

describe("the faces and registered properties, declared once", () => {
  it("declarations takes the @font-face and @property rules; withoutDeclarations leaves the rest; inlineDeclarations puts them in a page that keeps its links", () => {
    expect(declarations(SHEET)).toBe(FACE + PROPERTY);
    expect(withoutDeclarations(SHEET)).not.toMatch(/@font-face|@property/);
    expect(withoutDeclarations(SHEET)).toContain(".used{color:red}");
    const admin = inlineDeclarations(site, page("<p>admin</p>"));
    expect(admin).toContain(LINK);
    expect(admin).toContain(`<style>${FACE}${PROPERTY}</style>`);
  });
});

describe("trimmed", () => {
  const fallback = "@supports ((-webkit-hyphens:none)){*,:before,:after{--tw-a:0;--tw-b:initial}}";
  it("drops Tailwind's fallback for browsers without @property, and the @property rules (declarations has them)", () => {
    const out = trimmed(`${fallback}@property --tw-read{syntax:'*';inherits:false}.x{box-shadow:var(--tw-read)}`);
    expect(out).toBe(".x{box-shadow:var(--tw-read)}");
  });

  it("keeps any other @supports block", () => {
    const css = "@supports (color:color-mix(in lab,red,red)){::placeholder{color:color-mix(in oklab,currentcolor 50%,transparent)}}";
    expect(trimmed(css)).toBe(css);
  });
});

describe("rules whose selector opens with :where( or :is(, or styles the root for what it holds (Beasties dropped those whatever the page held)", () => {
  it("matchable puts the function's arguments in its place, and the root's :has() arguments in the root's", () => {
    expect(matchable(String.raw`:where(.space-y-2>:not(:last-child)):not(#\#)`)).toEqual([String.raw`.space-y-2>:not(:last-child):not(#\#)`]);
    expect(matchable(":is(.chapter-content,.prose-page) ul>li")).toEqual([".chapter-content ul>li", ".prose-page ul>li"]);
    expect(matchable(String.raw`:is(:where(.group):hover .group-hover\:underline)`)).toEqual([String.raw`.group:hover .group-hover\:underline`]);
    expect(matchable(".plain:is(.a,.b)")).toEqual([".plain:is(.a,.b)"]);
    expect(matchable(":where()")).toEqual([":where()"]);
    expect(matchable(String.raw`html:has(.scan-bar):not(#\#)`)).toEqual([".scan-bar"]);
    expect(matchable(":root:has(> .a, .b)")).toEqual([".a", ".b"]);
    expect(matchable("html:has(dialog[open]) .site-header::after")).toEqual(["html:has(dialog[open]) .site-header::after"]);
  });

  it("keeps such a rule, as the sheet has it and where the sheet has it, when the page holds what it styles, and not otherwise", async () => {
    const sheet = String.raw`.first:not(#\#){color:red}:where(.space-y-2>:not(:last-child)):not(#\#){margin-block-end:8px}@media (min-width:48rem){:is(.wide,.wider) p{padding:1px}}.last:not(#\#){color:blue}:where(.space-y-9>:not(:last-child)){margin:9px}html:has(.bar):not(#\#){scroll-padding-bottom:5rem}html:has(.absent){color:red}`;
    fs.writeFileSync(path.join(site, "_astro/where.css"), sheet);
    const out = await inlineCriticalCss(site, page(`<p class="first">a</p><ul class="space-y-2"><li>1</li><li>2</li></ul><div class="wider"><p>w</p></div><p class="last">z</p><div class="bar"></div>`).replace("site.css", "where.css"));
    const css = /<style>([\s\S]*)<\/style>/.exec(out)![1]!;
    expect(css).toContain(String.raw`.first:not(#\#){color:red}:where(.space-y-2>:not(:last-child)):not(#\#){margin-block-end:8px}@media (min-width:48rem){:is(.wide,.wider) p{padding:1px}}.last:not(#\#){color:blue}`);
    expect(css).toContain(String.raw`html:has(.bar):not(#\#){scroll-padding-bottom:5rem}`);
    expect(css).not.toContain("space-y-9");
    expect(css).not.toContain(".absent");
    expect(css).not.toContain("--critical-css-rule");
  });
});
