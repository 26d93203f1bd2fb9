/**
 * A result description, split into the blocks SPEC.md section 4 describes ("Description
 * rendering"): paragraphs are split at blank lines; a paragraph starting 'What this tells us:'
 * is a heading followed by its bullet lines; a paragraph starting 'Next move:' is a heading
 * followed by its lines; a paragraph wrapped in double quotes is an italic quote. Anything else
 * is a plain paragraph. Used by the island to render and by the content check to validate.
 */

export type DescriptionBlock =
  | { kind: "paragraph"; text: string }
  | { kind: "bullets"; heading: string; items: string[] }
  | { kind: "lines"; heading: string; lines: string[] }
  | { kind: "quote"; text: string };

export const BULLETS_HEADING = "What this tells us:";
export const NEXT_MOVE_HEADING = "Next move:";

const BULLET = /^[•\-*]\s+/;
const QUOTED = /^["“][\s\S]*["”]$/;

/** Splits a description into blocks; blank paragraphs are dropped. */
export function parseDescription(text: string): DescriptionBlock[] {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== "")
    .map(toBlock);
}

function toBlock(paragraph: string): DescriptionBlock {
  if (paragraph.startsWith(BULLETS_HEADING)) {
    const lines = restLines(paragraph, BULLETS_HEADING);
    return {
      kind: "bullets",
      heading: BULLETS_HEADING,
      items: lines.filter((line) => BULLET.test(line)).map((line) => line.replace(BULLET, "").trim()),
    };
  }
  if (paragraph.startsWith(NEXT_MOVE_HEADING)) {
    return { kind: "lines", heading: NEXT_MOVE_HEADING, lines: restLines(paragraph, NEXT_MOVE_HEADING) };
  }
  if (QUOTED.test(paragraph) && paragraph.length > 1) return { kind: "quote", text: paragraph };
  return { kind: "paragraph", text: paragraph };
}

/** The non-empty lines after a heading, including any text on the heading's own line. */
function restLines(paragraph: string, heading: string): string[] {
  return paragraph
    .slice(heading.length)
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
}

/**
 * Why a description does not follow the layout the content file documents, or null when it does:
 * at least one plain paragraph, then one 'What this tells us:' block whose every line is a bullet,
 * one 'Next move:' block with at least one line, and one quote.
 */
export function descriptionProblem(text: string): string | null {
  const blocks = parseDescription(text);
  const count = (kind: DescriptionBlock["kind"]) => blocks.filter((b) => b.kind === kind).length;
  if (count("paragraph") < 1) return "needs at least one plain paragraph";
  if (count("bullets") !== 1) return `needs exactly one paragraph starting "${BULLETS_HEADING}"`;
  if (count("lines") !== 1) return `needs exactly one paragraph starting "${NEXT_MOVE_HEADING}"`;
  if (count("quote") !== 1) return "needs exactly one paragraph wrapped in double quotes";
  const bulletsParagraph = text
    .replace(/\r\n?/g, "\n")
    .split(/\n[ \t]*\n/)
    .map((p) => p.trim())
    .find((p) => p.startsWith(BULLETS_HEADING))!;
  const lines = restLines(bulletsParagraph, BULLETS_HEADING);
  if (lines.length === 0) return `the "${BULLETS_HEADING}" paragraph needs bullet lines`;
  const stray = lines.find((line) => !BULLET.test(line));
  if (stray) return `every line under "${BULLETS_HEADING}" must start with "• " (this one does not: "${stray}")`;
  const next = blocks.find((b) => b.kind === "lines");
  if (next && next.kind === "lines" && next.lines.length === 0) return `the "${NEXT_MOVE_HEADING}" paragraph needs at least one line`;
  return null;
}
