/**
 * The book's typeface cut to what the site sets (issue 20: 2), build-time code.
 *
 * Source Serif 4 comes from @fontsource-variable/source-serif-4 in subsets by script: its "latin"
 * files are 51 KB each, upright and italic, for about 230 characters at every weight from 200 to
 * 900 with every OpenType feature (small capitals, old-style and fractional figures...). The site
 * sets its own words and the book's in about a hundred characters, at 400 to 700, with kerning and
 * the common ligatures. So every build cuts a "core" file of each style to that (about 20 KB):
 * printable ASCII, common punctuation, and every other character of the latin set that the site's
 * pages and the seed book hold. global.css imports their @font-face rules last, so a browser
 * takes those characters from them, and fetches the package's whole latin and latin-ext files
 * (src/styles/fonts.css) only for a page that holds another one (a name typed with an accent, a
 * new chapter's Polish name). A browser fetches a face only where a page sets text in it: the
 * italic only where something is italic.
 *
 * The files and their CSS are written to node_modules/.cache/book-font (made again when their
 * characters, this file or the package's fonts change); Vite copies the fonts into the build with
 * a hash in their names.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AstroIntegration } from "astro";
import subsetFont from "subset-font";
import { BOOK_FACE } from "../lib/page-signals.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SOURCE_DIR = path.join(ROOT, "node_modules/@fontsource-variable/source-serif-4/files");
export const BOOK_FONT_DIR = path.join(ROOT, "node_modules/.cache/book-font");

/** Always in the core: printable ASCII, the no-break space and the punctuation of running text. */
const BASE = "U+0020-007E, U+00A0, U+2013-2014, U+2018-2019, U+201C-201D, U+2022, U+2026";

/** What the package's latin files hold (their unicode-range in its CSS): the core is cut from them. */
const LATIN = "U+0000-00FF, U+0131, U+0152-0153, U+02BB-02BC, U+02C6, U+02DA, U+02DC, U+0304, U+0308, U+0329, U+2000-206F, U+20AC, U+2122, U+2191, U+2193, U+2212, U+2215, U+FEFF, U+FFFD";

/** Where the site's own words are: its pages, components and islands, and the seed book with the scan. */
const TEXT_SOURCES = ["src/pages", "src/components", "src/layouts", "src/islands", "content"];

/** The weights the site sets (400 body, 600 titles and labels, 700 bold), and the features kept. */
const WEIGHTS = { min: 400, max: 700 };
const FEATURES = ["kern", "liga", "calt", "ccmp", "locl", "mark", "mkmk", "tnum"];

const STYLES = ["normal", "italic"] as const;

/** The code points a unicode-range value names. */
export function codePointsOf(range: string): number[] {
  return range.split(",").flatMap((part) => {
    const [from, to = from] = part.trim().replace(/^U\+/i, "").split("-").map((hex) => parseInt(hex, 16)) as [number, number?];
    return Array.from({ length: to! - from + 1 }, (_, i) => from + i);
  });
}

/** Code points as a unicode-range value, runs joined (U+0041-005A). */
export function unicodeRangeOf(points: Iterable<number>): string {
  const sorted = [...new Set(points)].sort((a, b) => a - b);
  const hex = (n: number) => n.toString(16).toUpperCase().padStart(4, "0");
  const runs: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    runs.push(i === j ? `U+${hex(sorted[i]!)}` : `U+${hex(sorted[i]!)}-${hex(sorted[j]!)}`);
    i = j + 1;
  }
  return runs.join(", ");
}

/** Every file's text under `dirs` (relative to the project). */
function textsOf(dirs: readonly string[]): string {
  return dirs
    .flatMap((dir) => fs.readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile() && /\.(astro|tsx|ts|md|yaml)$/.test(entry.name))
    .map((entry) => fs.readFileSync(path.join(entry.parentPath, entry.name), "utf8"))
    .join("");
}

/** The core's characters: the base, and every character of the latin set the site's texts hold. */
export function coreCodePoints(texts = textsOf(TEXT_SOURCES)): number[] {
  const latin = new Set(codePointsOf(LATIN));
  const used = [...new Set(texts)].map((c) => c.codePointAt(0)!).filter((point) => point > 0x7e && latin.has(point));
  return [...new Set([...codePointsOf(BASE), ...used])].sort((a, b) => a - b);
}

const sourceOf = (style: (typeof STYLES)[number]) => path.join(SOURCE_DIR, `source-serif-4-latin-wght-${style}.woff2`);

/**
 * The @font-face rules of the core files, for global.css (which imports this file's output). Every
 * text of the site is set in them, on every page after a browser's first (fonts.css: a face never
 * replaces the fallback under a reader's eyes, issue 44: 1); the header's right-aligned links sit in
 * boxes wide enough for either face (global.css, issue 34: 7).
 */
function coreCss(range: string): string {
  const face = (style: string) =>
    `@font-face {\n  font-family: "${BOOK_FACE}";\n  font-style: ${style};\n  font-display: optional;\n  font-weight: ${WEIGHTS.min} ${WEIGHTS.max};\n` +
    `  src: url("./book-core-${style}.woff2") format("woff2");\n  unicode-range: ${range};\n}\n`;
  return STYLES.map(face).join("");
}

/** Writes a file whole or not at all: two servers building at once never read a half-written one. */
function writeWhole(file: string, data: string | Buffer): void {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, data);
  fs.renameSync(temporary, file);
}

/** Writes the core files and their CSS, unless those there were cut from the same inputs. */
export async function buildBookFont(): Promise<void> {
  const points = coreCodePoints();
  const range = unicodeRangeOf(points);
  const stamp = createHash("sha256")
    .update(fs.readFileSync(fileURLToPath(import.meta.url)))
    .update(range)
    .update(JSON.stringify(STYLES.map((style) => fs.statSync(sourceOf(style)).size)))
    .digest("hex");
  const stampFile = path.join(BOOK_FONT_DIR, "stamp");
  if (fs.existsSync(stampFile) && fs.readFileSync(stampFile, "utf8") === stamp) return;
  fs.mkdirSync(BOOK_FONT_DIR, { recursive: true });
  const text = String.fromCodePoint(...points);
  for (const style of STYLES) {
    const cut = await subsetFont(fs.readFileSync(sourceOf(style)), text, { targetFormat: "woff2", variationAxes: { wght: WEIGHTS }, keepFeatures: FEATURES });
    writeWhole(path.join(BOOK_FONT_DIR, `book-core-${style}.woff2`), cut);
  }
  writeWhole(path.join(BOOK_FONT_DIR, "book-core.css"), `/* Written by src/styles/book-font.ts at build. */\n${coreCss(range)}`);
  writeWhole(stampFile, stamp);
}

/** The integration: the core files exist before Vite reads global.css (builds and `npm run dev`). */
export function bookFont(): AstroIntegration {
  return { name: "book-font", hooks: { "astro:config:setup": () => buildBookFont() } };
}
