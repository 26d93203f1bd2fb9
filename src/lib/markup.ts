/**
 * The one markup renderer, for build time and the server (SPEC.md section 2): ## and ### headings,
 * > quotes, - lists, **bold**, paragraphs separated by blank lines, links, and call-to-action
 * buttons. It is markdown-it set to that subset with raw HTML off, so HTML in content shows as
 * text, and links are limited to http, https, mailto and site-relative addresses.
 *
 * Call-to-action syntax: a paragraph holding only a link whose address is `cta:ACTION`:
 *
 *     [Take the scan](cta:assessment)
 *
 * ACTION is `schedule` (goes to /apply), `transform` (goes to the first Operator chapter) or
 * `assessment` (goes to /assessment). It renders as a button-styled link, so it works without
 * JavaScript.
 */
// By path, not by package name: see src/server/db/orm.ts (bundled into functions, not copied whole).
import MarkdownIt, { type Token } from "../../node_modules/markdown-it/dist/markdown-it.mjs";

export const CTA_ACTIONS = ["schedule", "transform", "assessment"] as const;
export type CtaAction = (typeof CTA_ACTIONS)[number];

export interface RenderOptions {
  /** Where the `transform` action leads: the first Operator chapter. */
  transformHref: string;
}

const SAFE_URL = /^(https?:\/\/|mailto:|\/(?!\/)|#|cta:)/i;

const md = new MarkdownIt("zero", { html: false, linkify: false, typographer: false, breaks: false });
md.enable(["heading", "blockquote", "list", "paragraph", "emphasis", "link", "escape", "entity", "newline"]);
md.validateLink = (url) => SAFE_URL.test(url.trim()) && !/[\s<>"']/.test(url.trim());

// Headings: only two levels exist in the book; # becomes ## and #### or deeper becomes ###.
md.renderer.rules.heading_open = (tokens, i) => `<${clampHeading(tokens[i]!.tag)}>`;
md.renderer.rules.heading_close = (tokens, i) => `</${clampHeading(tokens[i]!.tag)}>\n`;

md.renderer.rules.link_open = (tokens, i, options, env, self) => {
  const token = tokens[i]!;
  const href = String(token.attrGet("href") ?? "");
  const action = ctaAction(href);
  if (action) {
    token.attrSet("href", ctaHref(action, env as unknown as RenderOptions));
    token.attrSet("class", "cta-button");
    token.attrSet("data-cta", action);
  } else if (/^https?:\/\//i.test(href)) {
    token.attrSet("target", "_blank");
    token.attrSet("rel", "noopener noreferrer");
    (env as MarkupEnv).leaving = true;
  }
  return self.renderToken(tokens, i, options);
};

/**
 * A link to another site says so before it closes: a mark the eye sees and words a screen reader
 * reads, as the site's own links to the scheduling pages do.
 */
export const LEAVING_MARK =
  '<svg class="external-mark" aria-hidden="true" focusable="false" viewBox="0 0 12 12" width="12" height="12"><path d="M4.5 2.5h5v5M9.5 2.5l-7 7" fill="none" stroke="currentColor" stroke-width="1.4"/></svg>' +
  '<span class="sr-only"> (opens another site in a new tab)</span>';

md.renderer.rules.link_close = (tokens, i, options, env, self) => {
  const leaving = (env as MarkupEnv).leaving;
  (env as MarkupEnv).leaving = false;
  return `${leaving ? LEAVING_MARK : ""}${self.renderToken(tokens, i, options)}`;
};

/** What the renderer keeps while it renders one source: whether the open link leaves the site. */
interface MarkupEnv {
  leaving?: boolean;
}

// A paragraph that holds nothing but one call-to-action link becomes a button block.
md.core.ruler.push("cta_blocks", (state) => {
  const tokens = state.tokens;
  for (let i = 0; i + 2 < tokens.length; i++) {
    const [open, inline, close] = [tokens[i]!, tokens[i + 1]!, tokens[i + 2]!];
    if (open.type !== "paragraph_open" || inline.type !== "inline" || close.type !== "paragraph_close") continue;
    if (isLoneCta(inline.children ?? [])) {
      open.tag = close.tag = "div";
      open.attrSet("class", "cta");
    }
  }
});

function isLoneCta(children: Token[]): boolean {
  const meaningful = children.filter((t) => !(t.type === "text" && t.content.trim() === ""));
  const first = meaningful[0];
  const last = meaningful[meaningful.length - 1];
  return (
    first?.type === "link_open" &&
    last?.type === "link_close" &&
    ctaAction(String(first.attrGet("href") ?? "")) !== null &&
    meaningful.filter((t) => t.type === "link_open").length === 1
  );
}

function clampHeading(tag: string): string {
  return tag === "h1" || tag === "h2" ? "h2" : "h3";
}

function ctaAction(href: string): CtaAction | null {
  const match = /^cta:([a-z]+)$/i.exec(href.trim());
  const action = match?.[1]?.toLowerCase();
  return (CTA_ACTIONS as readonly string[]).includes(action ?? "") ? (action as CtaAction) : null;
}

function ctaHref(action: CtaAction, options: RenderOptions): string {
  switch (action) {
    case "schedule":
      return "/apply";
    case "assessment":
      return "/assessment";
    case "transform":
      return options.transformHref;
  }
}

/** Renders content markup to safe HTML. */
export function renderMarkup(source: string, options: RenderOptions): string {
  // An unknown cta: action is not a link at all; show its label as text.
  const html = md.render(source, { ...options });
  return html.replace(/<a href="cta:[^"]*">([\s\S]*?)<\/a>/g, "$1");
}
