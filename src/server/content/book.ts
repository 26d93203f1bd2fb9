/**
 * The seed book in content/book: one folder per chapter holding chapter.md and one file per
 * subsection, each with a YAML front matter block. Validated with zod; a mistake names the file.
 */
import fs from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { z } from "../../lib/zod.ts";
import { LEVELS } from "../../lib/levels.ts";
import { SLUG_PATTERN } from "../../lib/slug.ts";

const slug = z.string().regex(SLUG_PATTERN, "must be lowercase letters, digits and single hyphens");
const order = z.number().int().min(0);

const chapterMeta = z.strictObject({
  slug,
  title: z.string().trim().min(1),
  level: z.enum(LEVELS),
  order,
  readingTime: z.number().int().min(1),
});

const subsectionMeta = z
  .strictObject({
    slug,
    title: z.string().trim().min(1),
    order,
    photo: z.string().regex(/^(\/|https:\/\/)\S+$/, "must be a site path or an https URL").optional(),
    photoAlt: z.string().trim().min(1).optional(),
  })
  .refine((meta) => !meta.photo || meta.photoAlt, { message: "photoAlt is required with a photo", path: ["photoAlt"] });

export type SeedSubsection = z.infer<typeof subsectionMeta> & { content: string };
export type SeedChapter = z.infer<typeof chapterMeta> & { content: string; subsections: SeedSubsection[] };

export const defaultBookDir = path.resolve(import.meta.dirname, "../../../content/book");

export class ContentError extends Error {
  override name = "ContentError";
}

/** Reads and validates the whole book; chapters in level then order, subsections in order. */
export function loadBook(dir: string = defaultBookDir): SeedChapter[] {
  const chapterDirs = fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name === "chapter.md")
    .map((entry) => entry.parentPath)
    .sort();
  const book = chapterDirs.map((chapterDir) => {
    const chapterFile = path.join(chapterDir, "chapter.md");
    const chapter = readDocument(chapterFile, chapterMeta);
    const subsections = fs
      .readdirSync(chapterDir)
      .filter((name) => name.endsWith(".md") && name !== "chapter.md")
      .sort()
      .map((name) => readDocument(path.join(chapterDir, name), subsectionMeta))
      .sort((a, b) => a.order - b.order);
    assertUnique(subsections.map((s) => s.slug), `subsection slug in ${chapterDir}`);
    return { ...chapter, subsections };
  });
  assertUnique(book.map((c) => c.slug), "chapter slug");
  return book.sort((a, b) => LEVELS.indexOf(a.level) - LEVELS.indexOf(b.level) || a.order - b.order);
}

function readDocument<T extends z.ZodType>(file: string, meta: T): z.infer<T> & { content: string } {
  const text = fs.readFileSync(file, "utf8").replace(/\r\n/g, "\n");
  const match = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/.exec(text);
  if (!match) throw new ContentError(`${file}: missing the front matter block between --- lines.`);
  const parsed = meta.safeParse(parseYaml(match[1]!));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ContentError(`${file}: ${issue.path.join(".") || "front matter"} ${issue.message}.`);
  }
  const content = match[2]!.trim();
  if (!content) throw new ContentError(`${file}: the text after the front matter is empty.`);
  return Object.assign({}, parsed.data as z.infer<T>, { content });
}

function assertUnique(values: string[], what: string): void {
  const seen = new Set<string>();
  for (const value of values) {
    if (seen.has(value)) throw new ContentError(`Duplicate ${what}: ${value}.`);
    seen.add(value);
  }
}
