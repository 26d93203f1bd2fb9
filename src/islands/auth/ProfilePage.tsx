/**
 * /profile (SPEC.md section 2): level badge, the reader's own streak and reading sessions
 * (recorded on the server; a new client sees zeros), Continue to where they last read on any
 * device (issue 23), the tier comparison and the account card.
 * Not signed in: off to /resume.
 */
import { useStore } from "@nanostores/react";
import { useEffect, useState } from "react";
import { apiRequest } from "../../lib/api-client.ts";
import { $auth, logout, restoreAuth } from "../../stores/auth.ts";
import ContinueReading from "./ContinueReading.tsx";
import MyNotebook from "./MyNotebook.tsx";
import ProfileMessages from "../messages/ProfileMessages.tsx";
import { averageLine, sessionsFigure, streakFigure, streakNote, type ReadingStats } from "../../lib/reading-figures.ts";
import { useSettledOnce, useSheetIn, useShownWhole } from "./shown-whole.ts";

/**
 * The parts that load on their own, and the full sheet (the page's inline CSS holds only what the
 * built page shows): "Loading..." stays until each is in (issue 44: 3).
 */
const PARTS = ["place", "notebook", "messages", "stats", "sheet"] as const;
/** Tall enough that the footer is below the window while the page loads and after (it does not jump). */
const page = "page-column min-h-svh py-16";

const UNAVAILABLE = "Not available just now";

const card = "rounded-lg border border-[var(--color-line)] bg-[var(--color-panel)] p-6 shadow-sm";
/** The quiet button (global.css): the page's one call to action is reading (ContinueReading). */
const secondary = "button-quiet";

export default function ProfilePage() {
  // Hydration renders what the server rendered ('Loading...'); the stored state follows at once.
  const auth = useStore($auth, { ssr: "initial" });
  // null: still asking; "unavailable": the figures could not be had (said so, never shown as zeros).
  const [stats, setStats] = useState<ReadingStats | "unavailable" | null>(null);
  const [leaving, setLeaving] = useState(false);

  useEffect(() => {
    void restoreAuth().then(() => {
      if (!$auth.get().isAuthenticated) window.location.replace("/resume");
    });
  }, []);

  useEffect(() => {
    if (auth.isAuthenticated) {
      apiRequest<ReadingStats>("GET", "/api/profile/stats")
        .then(setStats)
        .catch(() => setStats("unavailable"));
    }
  }, [auth.isAuthenticated]);

  const figures = stats === "unavailable" ? null : stats;
  const { whole, settled } = useShownWhole(PARTS);
  useSettledOnce(stats !== null, () => settled("stats"));
  useSheetIn(() => settled("sheet"));
  const loading = <p className="text-[var(--color-muted)]">Loading...</p>;

  if (auth.isLoading || !auth.isAuthenticated) {
    return <div className={page}>{loading}</div>;
  }

  const level = auth.accessLevel!;
  const isArchitect = level === "Architect";
  const isMastermind = level === "Mastermind";

  async function onExit() {
    setLeaving(true);
    await logout({ next: "/resume" });
    setLeaving(false);
  }

  return (
    <div className={page}>
      {!whole && loading}
      <div hidden={!whole}>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="font-serif text-3xl">My Profile</h1>
          <span
            className={`rounded-full px-3 py-1 text-xs font-semibold tracking-wide uppercase ${
              isMastermind
                ? "bg-[var(--color-accent)] text-[var(--color-accent-ink)]"
                : "border border-[var(--color-accent)] text-[var(--color-accent)]"
            }`}
          >
            {level} Level
          </span>
        </div>

        <ContinueReading level={level} className={`${card} mt-8`} onSettled={() => settled("place")} />

        <MyNotebook className={`${card} mt-6`} onSettled={() => settled("notebook")} />

        <ProfileMessages className={`${card} mt-6`} onSettled={() => settled("messages")} />

        <div className="mt-8 grid gap-6 sm:grid-cols-2">
          <section className={card} aria-labelledby="streak-title" aria-busy={stats === null}>
            <h2 id="streak-title" className="text-sm font-semibold tracking-wide text-[var(--color-muted)] uppercase">
              Daily Streak
            </h2>
            <p className="mt-3 font-serif text-4xl" data-testid="streak-days">
              {figures ? streakFigure(figures.streakDays) : stats === "unavailable" ? UNAVAILABLE : "…"}
            </p>
            {figures && <p className="mt-1 text-sm text-[var(--color-muted)]">{streakNote(figures.streakDays)}</p>}
            <ol className="mt-4 flex gap-2" aria-label="Reading in the last seven days">
              {(figures?.week ?? Array<boolean>(7).fill(false)).map((read, i) => (
                <li
                  key={i}
                  className={`h-3 w-3 rounded-full ${read ? "bg-[var(--color-accent)]" : "border border-[var(--color-line)]"}`}
                  aria-label={`${6 - i === 0 ? "Today" : `${6 - i} ${6 - i === 1 ? "day" : "days"} ago`}: ${read ? "read" : "not read"}`}
                />
              ))}
            </ol>
          </section>

          <section className={card} aria-labelledby="sessions-title" aria-busy={stats === null}>
            <h2 id="sessions-title" className="text-sm font-semibold tracking-wide text-[var(--color-muted)] uppercase">
              My Sessions
            </h2>
            <p className="mt-3 font-serif text-4xl" data-testid="session-count">
              {figures ? sessionsFigure(figures.sessions) : stats === "unavailable" ? UNAVAILABLE : "…"}
            </p>
            {figures && <p className="mt-4 text-sm text-[var(--color-muted)]">{averageLine(figures)}</p>}
          </section>
        </div>

        <section className={`${card} mt-6`} aria-labelledby="tier-title">
          <h2 id="tier-title" className="font-serif text-xl">Tier Information</h2>
          <div className="mt-4 grid gap-4 sm:grid-cols-2">
            <div className="rounded-md border border-[var(--color-line)] p-4">
              <div className="flex items-center justify-between gap-2">
                <h3 className="font-semibold">Architect</h3>
                {isArchitect && <span className="rounded-full bg-[var(--color-accent)] px-2 py-0.5 text-xs text-[var(--color-accent-ink)]">Current Tier</span>}
              </div>
              <p className="mt-2 text-sm text-[var(--color-muted)]">Levels 1 and 2 of the system. 4 deep 1:1 sessions per month.</p>
              {!isArchitect && (
                <a href="/apply" className={`${secondary} mt-4`}>
                  Apply for Architect
                </a>
              )}
            </div>
            <div className="rounded-md border border-[var(--color-line)] p-4">
              <div className="flex items-center justify-between gap-2">
                <h3 className="font-semibold">Mastermind</h3>
                {isMastermind && <span className="rounded-full bg-[var(--color-accent)] px-2 py-0.5 text-xs text-[var(--color-accent-ink)]">Current Tier</span>}
              </div>
              <p className="mt-2 text-sm text-[var(--color-muted)]">Levels 1, 2 and 3. 8 private 1:1 sessions per month.</p>
              {!isMastermind && (
                <div className="mt-4 flex flex-wrap gap-2">
                  <button type="button" className={secondary} disabled>
                    Fully Enrolled
                  </button>
                  {isArchitect && (
                    <button type="button" className={secondary} onClick={() => window.alert("Mastermind access request feature coming soon!")}>
                      Express Interest
                    </button>
                  )}
                </div>
              )}
            </div>
          </div>
        </section>

        <section className={`${card} mt-6`} aria-labelledby="account-title">
          <h2 id="account-title" className="font-serif text-xl">Account</h2>
          <div className="mt-4 flex flex-wrap gap-3">
            <a href="/" className={secondary}>
              Back to Content
            </a>
            <button type="button" className={secondary} onClick={onExit} disabled={leaving}>
              {leaving ? "Logging out..." : "Exit System"}
            </button>
          </div>
        </section>
      </div>
    </div>
  );
}
