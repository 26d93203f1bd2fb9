import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fontFaces, inlineCriticalCss, inlineFontFaces, trimmed, withoutFontFaces } from "./critical-css.ts";

const site = fs.mkdtempSync(path.join(os.tmpdir(), "critical-css-"));
afterAll(() => fs.rmSync(site, { recursive: true, force: true }));
fs.mkdirSync(path.join(site, "_astro"));
const SHEET =
  `@font-face{font-family:"Book";src:url(/_astro/book.woff2)format("woff2")}` +
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

  it("leaves a page that links no stylesheet of the site as it is", async () => {
    const bare = "<html><head></head><body><p>x</p></body></html>";
    expect(await inlineCriticalCss(site, bare)).toBe(bare);
  });
});

describe("the faces, declared once", () => {
  it("fontFaces takes the @font-face rules; withoutFontFaces leaves the rest; inlineFontFaces puts them in a page that keeps its links", () => {
    expect(fontFaces(SHEET)).toBe(`@font-face{font-family:"Book";src:url(/_astro/book.woff2)format("woff2")}`);
    expect(withoutFontFaces(SHEET)).not.toContain("@font-face");
    expect(withoutFontFaces(SHEET)).toContain(".used{color:red}");
    const admin = inlineFontFaces(site, page("<p>admin</p>"));
    expect(admin).toContain(LINK);
    expect(admin).toContain(`<style>@font-face{font-family:"Book"`);
  });
});

describe("trimmed", () => {
  it("drops Tailwind's fallback layer for browsers without @property, and @property rules nothing reads", () => {
    const css =
      "@layer properties{@supports ((-webkit-hyphens:none)){*,:before,:after{--tw-a:0}}}" +
      "@property --tw-read{syntax:'*';inherits:false}@property --tw-unread{syntax:'*';inherits:false}" +
      ".x{box-shadow:var(--tw-read)}";
    const out = trimmed(css);
    expect(out).not.toContain("@layer properties");
    expect(out).toContain("@property --tw-read");
    expect(out).not.toContain("--tw-unread");
    expect(out).toContain(".x{box-shadow:var(--tw-read)}");
  });
});
