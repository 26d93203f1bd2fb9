/**
 * Continue (issue 23): where the signed-in member last read, on whichever device, kept on the
 * server from their chapter pages' heartbeats. A link to the chapter that opens at that
 * subsection; nothing before they have read anything, or once that chapter is gone.
 */
import { useEffect, useState } from "react";
import { apiRequest } from "../../lib/api-client.ts";
import { railNumber } from "../reader/links.ts";

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

export default function ContinueReading({ className = "" }: { className?: string }) {
  const [place, setPlace] = useState<ReadingPlace | null>(null);

  useEffect(() => {
    apiRequest<{ place: ReadingPlace | null }>("GET", "/api/reading/place")
      .then((answer) => setPlace(answer.place))
      // Without it the page still works: there is just no offer.
      .catch(() => setPlace(null));
  }, []);

  if (!place) return null;
  return (
    <section className={className} aria-labelledby="continue-title" data-testid="continue-reading">
      <h2 id="continue-title" className="text-sm font-semibold tracking-wide text-[var(--color-muted)] uppercase">
        Where you left off
      </h2>
      <p className="mt-3 font-serif text-xl">{place.title}</p>
      {place.sectionTitle && (
        <p className="mt-1 text-[var(--color-muted)]">
          <span className="font-mono text-sm text-[var(--color-accent)]">{railNumber(place.sectionNumber!)}</span> {place.sectionTitle}
        </p>
      )}
      <a href={placeHref(place)} className="cta-button mt-4">
        Continue
      </a>
    </section>
  );
}
