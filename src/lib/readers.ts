/** The Readers tab's figures (issue 23), as the server answers them (src/server/admin/readers.ts). */
import type { Level } from "./levels.ts";

/** Where a member is: the chapter, its place among its level's chapters, and the subsection. */
export interface ReaderPlace {
  slug: string;
  title: string;
  level: Level;
  /** The chapter's position among the live chapters of its level (1 for the first), and how many there are. */
  position: number;
  of: number;
  sectionNumber: number | null;
  sectionTitle: string | null;
}

export interface CodeReading {
  login: string;
  level: Level;
  active: boolean;
  lastVisit: string | null;
  opened: number;
  finished: number;
  /** Chapters of the code's own level it finished, of how many that level holds. */
  finishedInLevel: number;
  chaptersInLevel: number;
  seconds: number;
  place: ReaderPlace | null;
}

export interface ChapterReading {
  slug: string;
  title: string;
  level: Level;
  position: number;
  opened: number;
  finished: number;
  /** The median of each opening member's time on it; null when nobody opened it. */
  medianSeconds: number | null;
}

export interface ReadersReport {
  codes: CodeReading[];
  chapters: ChapterReading[];
}
