/**
 * Property: whatever the content, the renderer's output holds only the tags and attributes of the
 * book's markup, and no link or attribute can carry script.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { renderMarkup } from "./markup.ts";

const RUNS = Number(process.env.FUZZ_RUNS || 1000);

// (svg, path and span: the mark and words of a link to another site, markup.ts LEAVING_MARK.)
const TAGS = new Set(["p", "h2", "h3", "blockquote", "ul", "ol", "li", "strong", "em", "a", "div", "br", "svg", "path", "span"]);
const ATTRIBUTES = new Set(["href", "class", "data-cta", "target", "rel", "start", "aria-hidden", "focusable", "viewbox", "width", "height", "d", "fill", "stroke", "stroke-width"]);
const SAFE_HREF = /^(https?:\/\/|mailto:|\/(?!\/)|#)/i;

/** Fragments that attack renderers, mixed with the book's own markup. */
const fragment = fc.oneof(
  fc.constantFrom(
    "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "<a href=\"javascript:alert(1)\">x</a>",
    "[x](javascript:alert(1))", "[x](JAVASCRIPT:alert(1))", "[x](java\nscript:alert(1))", "[x](&#106;avascript:alert(1))",
    "[x](data:text/html;base64,PHNjcmlwdD4=)", "[x](vbscript:msgbox(1))", "[x](//evil.example)", "[x](cta:schedule)",
    "[x](cta:transform)", "[x](cta:assessment)", "[x](cta:unknown)", "[x](\" onmouseover=\"alert(1))",
    "![x](javascript:alert(1))", "<svg onload=alert(1)>", "<iframe src=//evil>", "<style>*{}</style>",
    "\"><script>", "'onfocus='alert(1)", "`", "<!--", "-->", "&lt;script&gt;", "\u0000", "\u202e",
    "## ", "### ", "# ", "> ", "- ", "1. ", "**", "*", "_", "\n", "\n\n", "    ", "```", "|a|b|\n|-|-|",
    "<https://example.com>", "https://example.com", "[a][ref]\n\n[ref]: javascript:alert(1)", "[x](https://example.com/a)",
  ),
  fc.string({ maxLength: 20 }),
);
const content = fc.array(fragment, { maxLength: 30 }).map((parts) => parts.join(""));

describe("renderMarkup under hostile input", () => {
  it("emits only the book's tags and attributes, and only safe links", () => {
    fc.assert(
      fc.property(content, (source) => {
        const html = renderMarkup(source, { transformHref: "/first" });
        for (const tag of html.matchAll(/<\/?([a-zA-Z][\w-]*)([^>]*)>/g)) {
          const name = tag[1]!.toLowerCase();
          expect(TAGS.has(name), `tag <${name}> in ${html}`).toBe(true);
          for (const attribute of tag[2]!.matchAll(/\s([^\s=]+)(?:="([^"]*)")?/g)) {
            const attrName = attribute[1]!.toLowerCase();
            expect(ATTRIBUTES.has(attrName), `attribute ${attrName} in ${html}`).toBe(true);
            if (attrName === "href") expect(attribute[2], html).toMatch(SAFE_HREF);
          }
        }
        // Escaped text may say "onerror=" or "javascript:"; only tags and attributes (checked above) can act.
        expect(html).not.toMatch(/<script/i);
      }),
      { numRuns: RUNS },
    );
  });
});
