/**
 * Continue reading (beyond the spec): per level, the last chapter read and the subsection being
 * read, in localStorage under `reader-place`, so a reader who comes back to that chapter is
 * offered a jump to where they were.
 */
import { levelOf, type Level } from "../lib/levels.ts";

export const READER_PLACE_KEY = "reader-place";

export interface ReaderPlace {
  slug: string;
  /** The id of the subsection element being read, if the reader had reached one. */
  section?: string;
  sectionTitle?: string;
}

type Places = Partial<Record<Level, ReaderPlace>>;

function readAll(): Places {
  try {
    const parsed = JSON.parse(localStorage.getItem(READER_PLACE_KEY) ?? "{}") as unknown;
    return parsed && typeof parsed === "object" ? (parsed as Places) : {};
  } catch {
    return {};
  }
}

/** The remembered place for a level, if any. */
export function placeFor(level: string | null): ReaderPlace | undefined {
  const place = readAll()[levelOf(level)];
  return place && typeof place.slug === "string" ? place : undefined;
}

/** Remembers where the reader is in a chapter of `level`. */
export function rememberPlace(level: string | null, place: ReaderPlace): void {
  const all = readAll();
  all[levelOf(level)] = place;
  try {
    localStorage.setItem(READER_PLACE_KEY, JSON.stringify(all));
  } catch {
    // storage unavailable
  }
}
