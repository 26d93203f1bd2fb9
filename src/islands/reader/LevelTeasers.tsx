/**
 * What a locked level holds, for a reader without access to it (issue 15): the titles and teasers
 * of the chapters the operator chose to tease, with the way in (/apply, and /resume for a client
 * who has a code). Chapters without a teaser are not listed, so with no teasers at all this shows
 * nothing and the product behaves as the spec says.
 */
import { canAccess, LEVELS, type Level } from "../../lib/levels.ts";
import { teasersFor, type ChapterEntry } from "../../lib/level-chapters.ts";

interface Props {
  chapters: readonly ChapterEntry[];
  held: Level | null;
  /** One level only (the navigator's lock); else every level the reader may not read (/resume). */
  level?: Level;
  /** Offer /resume too (not on /resume itself). */
  signIn?: boolean;
  className?: string;
}

export default function LevelTeasers({ chapters, held, level, signIn = false, className = "" }: Props) {
  const levels = (level ? [level] : LEVELS).filter((l) => !canAccess(held, l) && teasersFor(chapters, l).length > 0);
  if (levels.length === 0) return null;
  return (
    <div className={`space-y-6 ${className}`} data-testid="level-teasers">
      {levels.map((l) => (
        <section key={l} aria-labelledby={`teasers-${l}`}>
          <h2 id={`teasers-${l}`} className="text-sm font-semibold tracking-widest uppercase">
            In {l}
          </h2>
          <ul className="mt-3 space-y-3">
            {teasersFor(chapters, l).map((chapter) => (
              <li key={chapter.slug}>
                <p className="font-medium">{chapter.title}</p>
                <p className="mt-0.5 text-sm text-[var(--color-muted)]">{chapter.teaser}</p>
              </li>
            ))}
          </ul>
        </section>
      ))}
      <p className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
        <a href="/apply" className="font-medium underline underline-offset-4">
          Apply for access
        </a>
        {signIn && (
          <a href="/resume" className="underline underline-offset-4">
            Enter The System
          </a>
        )}
      </p>
    </div>
  );
}
