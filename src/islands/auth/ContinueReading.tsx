/**
 * A member's main action (issues 23 and 34: 1): reading. Where they last read, on whichever
 * device, kept on the server from their chapter pages' heartbeats: 'Continue: {chapter}', opening
 * the chapter at that subsection. Before they have read anything (or once that chapter is gone, or
 * while the place cannot be had): 'Start reading {level}', the first chapter of their level.
 */
import { useStore } from "@nanostores/react";
import { useEffect, useState } from "react";
import { apiRequest } from "../../lib/api-client.ts";
import { chaptersFor } from "../../lib/level-chapters.ts";
import type { Level } from "../../lib/levels.ts";
import { $chapterList, startReader } from "../../stores/reader-chapters.ts";
import { railNumber } from "../reader/links.ts";
import { useSettledOnce } from "./shown-whole.ts";

export interface ReadingPlace {
  slug: string;
  title: string;
  level: string;
  section: string | null;
  sectionTitle: string | null;
  sectionNumber: number | null;
}

/** The chapter page's address at the place: its subsection's anchor, when there is one. */
export const placeHref = (place: ReadingPlace) => `/${place.slug}${place.section ? `#${place.section}` : ""}`;

const heading = "text-sm font-semibold tracking-wide text-[var(--color-muted)] uppercase";

export default function ContinueReading({ level, className = "", onSettled }: { level: Level; className?: string; onSettled?: () => void }) {
  // undefined: still asking; null: no place (or none to be had now).
  const [place, setPlace] = useState<ReadingPlace | null | undefined>(undefined);
  const list = useStore($chapterList, { ssr: "initial" }).chapters;

  useEffect(() => {
    void startReader();
    apiRequest<{ place: ReadingPlace | null }>("GET", "/api/reading/place")
      .then((answer) => setPlace(answer.place))
      // Without it the page still offers the level's first chapter.
      .catch(() => setPlace(null));
  }, []);
  useSettledOnce(place !== undefined, onSettled);

  if (place === undefined) {
    return <section className={`${className} min-h-32`} aria-busy="true" aria-label="Where you left off" data-testid="continue-reading" />;
  }
  if (place) {
    return (
      <section className={className} aria-labelledby="continue-title" data-testid="continue-reading">
        <h2 id="continue-title" className={heading}>
          Where you left off
        </h2>
        {place.sectionTitle && (
          <p className="mt-3 text-[var(--color-muted)]">
            <span className="font-mono text-sm text-[var(--color-accent)]">{railNumber(place.sectionNumber!)}</span> {place.sectionTitle}
          </p>
        )}
        <a href={placeHref(place)} className="cta-button mt-4 w-full">
          Continue: {place.title}
        </a>
      </section>
    );
  }
  const first = chaptersFor(list, level, level)[0];
  return (
    <section className={className} aria-labelledby="continue-title" data-testid="continue-reading">
      <h2 id="continue-title" className={heading}>
        Where to begin
      </h2>
      <p className="mt-3 text-[var(--color-muted)]">
        You have not opened a chapter yet. Your place is kept from the first one you read, on every device.
      </p>
      {/* "/" opens the selected level's first chapter, which signing in set to theirs, until the list is here. */}
      <a href={first ? `/${first.slug}` : "/"} className="cta-button mt-4 w-full">
        Start reading {level}
      </a>
    </section>
  );
}
