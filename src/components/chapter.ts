/** What the chapter view shows: a chapter with its content and subsections (one definition, in src/lib). */
export type { BodySubsection as ViewSubsection, BookChapter as ViewChapter } from "../lib/chapter-body.ts";
