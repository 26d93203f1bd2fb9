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

export interface ReadingStats {
  streakDays: number;
  /** Whether the reader read on each of the last seven days, oldest first (today last). */
  week: boolean[];
  sessions: number;
  averageMinutes: number;
}

const card = "rounded-lg border border-[var(--color-line)] bg-[var(--color-panel)] p-6 shadow-sm";
/** The site's two buttons (global.css): the call to action and the quiet one. */
const primary = "cta-button";
const secondary = "button-quiet";

export default function ProfilePage() {
  // Hydration renders what the server rendered ('Loading...'); the stored state follows at once.
  const auth = useStore($auth, { ssr: "initial" });
  const [stats, setStats] = useState<ReadingStats | null>(null);
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
        .catch(() => setStats({ streakDays: 0, week: Array(7).fill(false), sessions: 0, averageMinutes: 0 }));
    }
  }, [auth.isAuthenticated]);

  if (auth.isLoading || !auth.isAuthenticated) {
    return <p className="page-column py-16 text-[var(--color-muted)]">Loading...</p>;
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
    <div className="page-column py-16">
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

      <ContinueReading className={`${card} mt-8`} />

      <MyNotebook className={`${card} mt-6`} />

      <div className="mt-8 grid gap-6 sm:grid-cols-2">
        <section className={card} aria-labelledby="streak-title" aria-busy={stats === null}>
          <h2 id="streak-title" className="text-sm font-semibold tracking-wide text-[var(--color-muted)] uppercase">
            Daily Streak
          </h2>
          <p className="mt-3 font-serif text-4xl" data-testid="streak-days">
            {stats ? `${stats.streakDays} ${stats.streakDays === 1 ? "day" : "days"}` : "…"}
          </p>
          <ol className="mt-4 flex gap-2" aria-label="Reading in the last seven days">
            {(stats?.week ?? Array<boolean>(7).fill(false)).map((read, i) => (
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
            {stats ? stats.sessions : "…"}
          </p>
          <p className="mt-4 text-sm text-[var(--color-muted)]">
            Average session: {stats ? stats.averageMinutes : "…"} {stats?.averageMinutes === 1 ? "minute" : "minutes"}
          </p>
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
              <a href="/apply" className={`${primary} mt-4`}>
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
          <button type="button" className={primary} onClick={onExit} disabled={leaving}>
            {leaving ? "Logging out..." : "Exit System"}
          </button>
        </div>
      </section>
    </div>
  );
}
