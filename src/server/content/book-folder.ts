/**
 * The book as a folder of Markdown files, in the layout of content/book: a folder per level
 * (operator, architect, mastermind), in it a folder per chapter (`01-signal-and-noise`) holding
 * `chapter.md` and a file per subsection (`01-the-inventory-of-reactions.md`), each a YAML front
 * matter block then the text. A subsection's photo file sits beside it, named as in its address
 * (`/uploads/abc…_1200x800.jpg` → `abc…_1200x800.jpg`).
 *
 * Reading checks every file against the admin forms' own rules (src/lib/content-schemas.ts), so a
 * folder imports exactly what the panel would accept; a mistake names the file. Writing is exact:
 * the text after the front matter is the stored text, byte for byte, plus one closing newline.
 */
import fs from "node:fs";
import path from "node:path";
import { parse as parseYaml, stringify as stringifyYaml } from "yaml";
import { z } from "../../lib/zod.ts";
import { chapterInput, photoSchema, slugSchema, subsectionInput, TEASER_MAX_LENGTH } from "../../lib/content-schemas.ts";
import { levelSchema } from "../../lib/content-schemas.ts";
import type { Level } from "../../lib/levels.ts";
import { ContentError } from "./book.ts";

const chapterMeta = z.strictObject({
  slug: chapterInput.shape.slug,
  title: chapterInput.shape.title,
  level: levelSchema,
  order: chapterInput.shape.order,
  readingTime: chapterInput.shape.readingTime,
  teaser: z.string().trim().min(1, "Teaser must not be empty (leave the field out)").max(TEASER_MAX_LENGTH, `Teaser must be at most ${TEASER_MAX_LENGTH} characters`).optional(),
  draft: z.literal(true, { error: "draft must be true (or left out)" }).optional(),
});

const subsectionMeta = z.strictObject({
  slug: slugSchema,
  title: subsectionInput.shape.title,
  order: chapterInput.shape.order,
  photo: photoSchema,
  photoAlt: subsectionInput.shape.photoAlt,
  draft: z.literal(true, { error: "draft must be true (or left out)" }).optional(),
});

const contentSchema = chapterInput.shape.content;

export interface FolderSubsection {
  /** The file it was read from (absent for one about to be written). */
  file?: string;
  slug: string;
  title: string;
  order: number;
  photo: string | null;
  photoAlt: string | null;
  content: string;
  /** A draft (issue 14): not public yet. Written as `draft: true`, left out when published. */
  draft: boolean;
}

export interface FolderChapter {
  /** The chapter.md it was read from (absent for one about to be written). */
  file?: string;
  slug: string;
  title: string;
  level: Level;
  order: number;
  readingTime: number;
  /** A locked chapter's teaser (issue 15), or null. */
  teaser: string | null;
  draft: boolean;
  content: string;
  subsections: FolderSubsection[];
}

/**
 * Reads and checks every chapter and subsection under `dir`: chapters by level then order. A
 * symbolic link anywhere below `dir` stops the read, naming it: a link may point at any file of
 * the server, which the import would then publish (issue 21: 4).
 */
export function readBookFolder(dir: string): FolderChapter[] {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new ContentError(`${dir}: no such folder.`);
  const entries = fs.readdirSync(dir, { recursive: true, withFileTypes: true });
  const link = entries.find((entry) => entry.isSymbolicLink());
  if (link) throw symbolicLink(path.join(link.parentPath, link.name));
  const chapterDirs = entries
    .filter((entry) => entry.isFile() && entry.name === "chapter.md")
    .map((entry) => entry.parentPath)
    .sort();
  if (chapterDirs.length === 0) throw new ContentError(`${dir}: holds no chapter (no chapter.md in any folder below it).`);
  const book = chapterDirs.map((chapterDir) => {
    const file = path.join(chapterDir, "chapter.md");
    const chapter = readDocument(file, chapterMeta);
    const subsections = fs
      .readdirSync(chapterDir, { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith(".md") && entry.name !== "chapter.md")
      .map((entry) => path.join(chapterDir, entry.name))
      .sort()
      .map((part): FolderSubsection => {
        const meta = readDocument(part, subsectionMeta);
        return { ...meta, photo: meta.photo?.trim() || null, photoAlt: meta.photoAlt?.trim() || null, draft: meta.draft ?? false, file: part };
      })
      .sort((a, b) => a.order - b.order);
    assertUnique(subsections, (s) => s.slug, "subsection slug", chapterDir);
    return { ...chapter, teaser: chapter.teaser ?? null, draft: chapter.draft ?? false, file, subsections };
  });
  assertUnique(book, (c) => c.slug, "chapter slug", dir);
  const rank = (level: Level) => ["Operator", "Architect", "Mastermind"].indexOf(level);
  return book.sort((a, b) => rank(a.level) - rank(b.level) || a.order - b.order);
}

/** The folder of a chapter, relative to the book's folder: `operator/01-signal-and-noise`. */
export const chapterFolder = (chapter: Pick<FolderChapter, "level" | "order" | "slug">) =>
  path.join(chapter.level.toLowerCase(), `${String(chapter.order).padStart(2, "0")}-${chapter.slug}`);

/** A subsection's file name in its chapter's folder: `01-the-inventory-of-reactions.md`. */
export const subsectionFile = (part: Pick<FolderSubsection, "order" | "slug">) =>
  `${String(part.order).padStart(2, "0")}-${part.slug}.md`;

/**
 * The file name a photo address is kept under beside its subsection, or null for one not copied.
 * Only a plain name: an address whose last part decodes to a path (`x%2F..%2Fevil`), or one that
 * cannot be decoded, gives null, so no photo is ever written outside its chapter's folder.
 */
export function photoFileName(photo: string | null): string | null {
  if (!photo || !photo.startsWith("/") || photo.startsWith("//")) return null;
  let name: string;
  try {
    name = decodeURIComponent(photo.split(/[?#]/)[0]!.split("/").pop() ?? "");
  } catch {
    return null;
  }
  if (/[/\\\u0000-\u001f\u007f]/.test(name)) return null;
  return name && !name.startsWith(".") && !name.endsWith(".md") ? name : null;
}

const symbolicLink = (file: string) =>
  new ContentError(
    `${file}: is a symbolic link. An import never follows links (one could point at any file of this server): put the file itself in the folder.`,
  );

/** Which flag opens a file without following a final symbolic link (0 where the system has none). */
const NO_FOLLOW = fs.constants.O_NOFOLLOW ?? 0;

/**
 * A file of the book's folder, read only when it is a plain file: never through a symbolic link,
 * even one put there after the folder was checked.
 */
export function readFolderFile(file: string): Buffer {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | NO_FOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP") throw symbolicLink(file);
    throw error;
  }
  try {
    if (!fs.fstatSync(fd).isFile()) throw new ContentError(`${file}: is not a plain file.`);
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** A document's text: the front matter block, then the text exactly. */
export function documentText(meta: Record<string, unknown>, content: string): string {
  const defined = Object.fromEntries(Object.entries(meta).filter(([, value]) => value !== null && value !== undefined));
  return `---\n${stringifyYaml(defined, { lineWidth: 0 })}---\n${content}\n`;
}

export function chapterDocument(chapter: Omit<FolderChapter, "subsections" | "file">): string {
  const { slug, title, level, order, readingTime, teaser, draft, content } = chapter;
  return documentText({ slug, title, level, order, readingTime, teaser, draft: draft || null }, content);
}

export function subsectionDocument(part: Omit<FolderSubsection, "file">): string {
  const { slug, title, order, photo, photoAlt, draft, content } = part;
  return documentText({ title, slug, order, photo, photoAlt, draft: draft || null }, content);
}

function readDocument<T extends z.ZodType>(file: string, meta: T): z.infer<T> & { content: string } {
  const text = readFolderFile(file).toString("utf8").replace(/\r\n/g, "\n");
  const match = /^---\n([\s\S]*?)\n?---\n([\s\S]*)$/.exec(text);
  if (!match) throw new ContentError(`${file}: missing the front matter block between --- lines at the top.`);
  let data: unknown;
  try {
    data = parseYaml(match[1]!);
  } catch (error) {
    throw new ContentError(`${file}: the front matter is not valid YAML (${(error as Error).message.split("\n")[0]}).`);
  }
  const parsed = meta.safeParse(data ?? {});
  if (!parsed.success) throw new ContentError(`${file}: ${describeIssue(parsed.error.issues[0]!)}.`);
  // One closing newline is the file's, not the text's (editors add it; documentText writes it).
  const content = match[2]!.endsWith("\n") ? match[2]!.slice(0, -1) : match[2]!;
  const checked = contentSchema.safeParse(content);
  if (!checked.success) throw new ContentError(`${file}: the text after the front matter: ${checked.error.issues[0]!.message}.`);
  return Object.assign({}, parsed.data as z.infer<T>, { content });
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.join(".");
  if (issue.code === "unrecognized_keys") return `unknown front matter field ${issue.keys.map((k) => `"${k}"`).join(", ")}`;
  if (!field) return `front matter: ${issue.message}`;
  return `${issue.message} (front matter field "${field}")`;
}

function assertUnique<T>(items: T[], key: (item: T) => string, what: string, where: string): void {
  const seen = new Map<string, T>();
  for (const item of items) {
    const value = key(item);
    const earlier = seen.get(value);
    if (earlier) {
      const files = [earlier, item].map((it) => (it as { file?: string }).file).filter(Boolean).join(" and ");
      throw new ContentError(`${where}: the ${what} "${value}" is used twice (${files}).`);
    }
    seen.set(value, item);
  }
}
