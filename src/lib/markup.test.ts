import { describe, expect, it } from "vitest";
import { LEAVING_MARK, renderMarkup } from "./markup.ts";

const options = { transformHref: "/signal-and-noise" };
const render = (source: string) => renderMarkup(source, options);

describe("renderMarkup", () => {
  it("renders every form of the book's markup", () => {
    const html = render(
      "## Title\n\n### Sub\n\nFirst paragraph with **bold**.\n\nSecond paragraph.\n\n> A quote\n\n- one\n- two",
    );
    expect(html).toContain("<h2>Title</h2>");
    expect(html).toContain("<h3>Sub</h3>");
    expect(html).toContain("<p>First paragraph with <strong>bold</strong>.</p>");
    expect(html).toContain("<p>Second paragraph.</p>");
    expect(html).toContain("<blockquote>\n<p>A quote</p>\n</blockquote>");
    expect(html).toContain("<ul>\n<li>one</li>\n<li>two</li>\n</ul>");
  });

  it("keeps headings to two levels", () => {
    expect(render("# Big")).toBe("<h2>Big</h2>\n");
    expect(render("#### Deep")).toBe("<h3>Deep</h3>\n");
  });

  it.each([
    ["schedule", "/apply"],
    ["assessment", "/assessment"],
    ["transform", "/signal-and-noise"],
  ])("turns a lone cta:%s link into a button to %s", (action, href) => {
    const html = render(`Before.\n\n[Go now](cta:${action})\n\nAfter.`);
    expect(html).toContain(`<div class="cta"><a href="${href}" class="cta-button" data-cta="${action}">Go now</a></div>`);
  });

  it("shows an unknown action's label as text", () => {
    expect(render("[Label](cta:explode)")).toBe("<p>Label</p>\n");
  });

  it("shows HTML in content as text", () => {
    const html = render('<script>alert(1)</script>\n\n<img src=x onerror="alert(1)">');
    expect(html).not.toMatch(/<script|<img/i);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  it.each(["javascript:alert(1)", "JaVaScRiPt:alert(1)", "data:text/html,<b>x</b>", "vbscript:x", "//evil.example/x", "java\tscript:alert(1)"])(
    "never links to %s",
    (url) => {
      const html = render(`[click](${url})`);
      expect(html).not.toContain("<a");
    },
  );

  it("keeps safe links and opens external ones in a new tab, saying so with a mark and words", () => {
    expect(render("[a](https://example.com)")).toContain(
      `<a href="https://example.com" target="_blank" rel="noopener noreferrer">a${LEAVING_MARK}</a>`,
    );
    expect(LEAVING_MARK).toContain('<span class="sr-only"> (opens another site in a new tab)</span>');
    expect(LEAVING_MARK).toMatch(/^<svg [^>]*aria-hidden="true"/);
    // Only the link that leaves says so.
    expect(render("[a](https://example.com) and [b](/apply) and **[c](http://example.org/x)**").match(/opens another site/g)).toHaveLength(2);
    expect(render("[b](/apply) then [c](https://example.com)")).toMatch(/<a href="\/apply">b<\/a>/);
    expect(render("[b](/apply)")).toContain('<a href="/apply">b</a>');
    expect(render("[c](mailto:hello@example.com)")).toContain('<a href="mailto:hello@example.com">c</a>');
  });

  it("does not render images, tables or code blocks as such", () => {
    const html = render("![x](https://example.com/x.png)\n\n| a | b |\n|---|---|\n\n    code");
    expect(html).not.toMatch(/<img|<table|<pre|<code/);
  });
});

describe("renderMarkup with hostile input", () => {
  it.each([
    ['[x](/a "onmouseover=alert(1)")', /<[^>]*\sonmouseover=/],
    ['[x](/a" onclick="alert(1))', /<[^>]*\sonclick=/],
    ["[x](&#106;avascript:alert(1))", /href="(?!\/)/],
    ["[x](javascript&colon;alert(1))", /<a/],
    ["<javascript:alert(1)>", /<a/],
    ["[x](cta:schedule\" onclick=\"alert(1))", /<[^>]*\sonclick=/],
  ])("%s carries no script", (source, forbidden) => {
    const html = render(source);
    expect(html).not.toMatch(forbidden);
    expect(html).not.toMatch(/<a[^>]+href="\s*(javascript|data|vbscript):/i);
    expect(html).not.toMatch(/<[a-z]+[^>]*\son[a-z]+=/i);
  });

  it("escapes HTML inside bold, quotes, list items and headings", () => {
    const html = render('## <b>h</b>\n\n> <iframe src="x">\n\n- <svg onload=alert(1)>\n\n**<style>x</style>**');
    expect(html).not.toMatch(/<(b|iframe|svg|style)[\s>]/);
    expect(html).toContain("&lt;iframe");
  });

  it("keeps a cta label's markup safe", () => {
    const html = render("[<img src=x onerror=alert(1)>](cta:assessment)");
    expect(html).not.toMatch(/<img/);
    expect(html).toContain('data-cta="assessment"');
  });
});
