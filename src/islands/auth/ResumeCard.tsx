/**
 * /resume (SPEC.md section 2): the 'Enter The System' login card, or 'System Access Granted'
 * with the level and 'Exit System'. A back button goes to the first chapter of the remembered
 * level. This is also where readers without access to a level are sent (`?level=`: the card then
 * says which level was asked for and how it opens, issue 34: 3). A signed-in member's main action
 * is reading: Continue to where they last read, on any device (issues 23, 34: 1).
 */
import { useStore } from "@nanostores/react";
import { useEffect, useState, type SubmitEvent } from "react";
import { $auth, login, logout, restoreAuth } from "../../stores/auth.ts";
import { $chapterList, $levelChapters, startReader, type ChapterEntry } from "../../stores/reader-chapters.ts";
import LevelTeasers from "../reader/LevelTeasers.tsx";
import ContinueReading from "./ContinueReading.tsx";
import NotebookDownload from "./NotebookDownload.tsx";
import { takeSessionEnded } from "../../lib/session-ended.ts";
import { $selectedLevel, selectLevel } from "../../stores/selected-level.ts";
import { askedLevel, canAccess, DEFAULT_LEVEL, LEVELS, type Level } from "../../lib/levels.ts";
import { ApiError } from "../../lib/api-client.ts";
import { CONTACT_EMAIL } from "../../lib/site-config.ts";
import { useSheetIn, useShownWhole } from "./shown-whole.ts";

const card = "rounded-lg border border-[var(--color-line)] bg-[var(--color-panel)] p-6 shadow-sm sm:p-8";
const input =
  "mt-1 w-full rounded-md border border-[var(--color-line)] bg-[var(--color-page)] px-3 py-2 text-[var(--color-ink)] outline-none focus-visible:ring-2 focus-visible:ring-[var(--color-accent)] disabled:opacity-60";
/** The site's call-to-action button (global.css), the card's width. */
const primary = "cta-button w-full";

const NO_CHAPTERS: ChapterEntry[] = [];
/** The levels a reader may be sent here to open. */
const LOCKED_LEVELS = LEVELS.filter((level) => level !== DEFAULT_LEVEL);

/** The server's word for the right password of a code that has ended (issue 44: 6). */
const ENDED = new Set(["access_code_inactive", "access_code_expired"]);
interface Ended {
  message: string;
  notebookKept: boolean;
  given: { login: string; password: string };
}

export default function ResumeCard() {
  // Hydration renders what the server rendered (the stores' first values); the stored state,
  // which the header restored before this island woke, follows at once.
  const auth = useStore($auth, { ssr: "initial" });
  const level = useStore($selectedLevel, { ssr: "initial" });
  const chapters = useStore($levelChapters, { ssr: () => NO_CHAPTERS });
  const allChapters = useStore($chapterList, { ssr: "initial" }).chapters;
  const [code, setCode] = useState("");
  const [password, setPassword] = useState("");
  const [pending, setPending] = useState(false);
  const [leaving, setLeaving] = useState(false);
  // Told, not dropped (issue 22: 8): the session ended because the code signed in elsewhere.
  const [replaced, setReplaced] = useState(false);
  // Nothing moves as the page loads (issue 44: 3). The built page holds the sign-in card (shown
  // unless the head script saw a session), so it paints at once; a member's card is shown once it
  // knows where they left off, and once the full sheet is in (the inline CSS holds only what the
  // built page shows), as are the teasers below.
  const { whole: placeKnown, settled } = useShownWhole(["place", "sheet"]);
  const [sheetIn, setSheetIn] = useState(false);
  useSheetIn(() => {
    settled("sheet");
    setSheetIn(true);
  });
  // Signing in to a code that has ended, with its right password: said in the card, with the way to its notebook.
  const [ended, setEnded] = useState<Ended | null>(null);

  useEffect(() => {
    void restoreAuth().then(() => setReplaced(takeSessionEnded()));
    void startReader();
  }, []);

  const ready = code.trim() !== "" && password.trim() !== "" && !pending;

  async function onSubmit(event: SubmitEvent) {
    event.preventDefault();
    if (!ready) return;
    setPending(true);
    const given = { login: code.trim(), password };
    const refusal = await login(given.login, given.password);
    setPending(false);
    setEnded(
      refusal instanceof ApiError && refusal.code && ENDED.has(refusal.code)
        ? { message: refusal.text, notebookKept: refusal.details.notebookKept === true, given }
        : null,
    );
    if (refusal === null) {
      setReplaced(false);
      setCode("");
      setPassword("");
      const granted = $auth.get().accessLevel;
      if (granted) selectLevel(granted);
    }
  }

  async function onExit() {
    setLeaving(true);
    await logout();
    setLeaving(false);
  }

  const back = chapters[0] ? `/${chapters[0].slug}` : "/";
  // The locked level the reader was sent here from (the level switch, a locked chapter's address).
  const [asked, setAsked] = useState<Level | null>(null);
  useEffect(() => setAsked(askedLevel(location.search)), []);

  return (
    // (Tall enough that the footer is below the window while the card loads and after: it does not jump.)
    <div className="mx-auto min-h-svh w-full max-w-md px-5 py-16">
      <a href={back} className="mb-6 inline-flex items-center gap-2 text-sm text-[var(--color-muted)] hover:text-[var(--color-ink)]">
        <span aria-hidden="true">←</span> Back to {level} chapters
      </a>
      {replaced && !auth.isLoading && !auth.isAuthenticated && (
        <p role="status" className="mb-6 rounded-md border border-[var(--color-accent)] bg-[var(--color-panel)] p-4 text-sm">
          You were signed out here because your access code was used to sign in on another device, and a code stays signed in on
          only a few devices at once. Enter it again to continue reading here.
        </p>
      )}
      {(auth.isLoading || (auth.isAuthenticated && !placeKnown)) && (
        <div className={`${card}${auth.isLoading ? " authed-only" : ""}`} aria-busy="true">
          <p className="text-[var(--color-muted)]">Loading...</p>
        </div>
      )}
      {auth.isAuthenticated ? (
        <section className={card} aria-labelledby="access-title" hidden={!placeKnown}>
          <h1 id="access-title" className="font-serif text-2xl">System Access Granted</h1>
          <p className="mt-4 font-medium">Level: {auth.accessLevel}</p>
          <p className="mt-1 text-[var(--color-muted)]">You have access to {auth.accessLevel} level content</p>
          {asked && !canAccess(auth.accessLevel, asked) && (
            <p className="mt-3 text-[var(--color-muted)]" data-testid="asked-level">
              {asked} chapters open with a {asked} access code.{" "}
              <a href="/apply" className="text-[var(--color-ink)] underline underline-offset-4">
                How to join {asked}
              </a>
            </p>
          )}
          {/* Reading is the main action; leaving is a quiet one (issue 34: 1). */}
          <ContinueReading level={auth.accessLevel!} className="mt-6" onSettled={() => settled("place")} />
          <button type="button" className="button-quiet mt-4 w-full" onClick={onExit} disabled={leaving}>
            Exit System
          </button>
        </section>
      ) : (
        <section className={`${card}${auth.isLoading ? " anon-only" : ""}`} aria-labelledby="enter-title">
          <h1 id="enter-title" className="font-serif text-2xl">Enter The System</h1>
          {/* Each locked level's words, in the built page: the one the address asks for shows (resume.astro's head script, global.css). */}
          {LOCKED_LEVELS.map((locked) => (
            <p key={locked} className={`asked-${locked} mt-3 text-[var(--color-muted)]`} data-testid={asked === locked ? "asked-level" : undefined}>
              {locked} chapters are open to members. They open with the access code and password you received on enrollment.{" "}
              <a href="/apply" className="text-[var(--color-ink)] underline underline-offset-4">
                How to join {locked}
              </a>
            </p>
          ))}
          {ended && (
            <div role="alert" className="mt-4 rounded-md border border-[var(--color-accent)] p-4 text-sm" data-testid="code-ended">
              <p>{ended.message}</p>
              <p className="mt-2">
                To ask about it, write to support at{" "}
                <a href={`mailto:${CONTACT_EMAIL}`} className="underline underline-offset-4">
                  {CONTACT_EMAIL}
                </a>
                .
              </p>
              {ended.notebookKept && (
                <p className="mt-2">
                  Your notebook is kept for 30 days after a code ends:{" "}
                  <a href="#notebook-download" className="underline underline-offset-4">
                    download it below
                  </a>
                  , with this access code and password.
                </p>
              )}
            </div>
          )}
          <form className="mt-6 space-y-4" onSubmit={onSubmit} noValidate>
            <label className="block text-sm font-medium">
              Access Code
              <input
                className={input}
                name="login"
                autoComplete="username"
                placeholder="e.g. Architect2847"
                value={code}
                disabled={pending}
                onChange={(e) => setCode(e.target.value)}
              />
            </label>
            <label className="block text-sm font-medium">
              Password
              <input
                className={input}
                type="password"
                name="password"
                autoComplete="current-password"
                value={password}
                disabled={pending}
                onChange={(e) => setPassword(e.target.value)}
              />
            </label>
            <button type="submit" className={primary} disabled={!ready}>
              {pending ? "Validating..." : "Enter"}
            </button>
          </form>
          <p className="mt-6 text-sm text-[var(--color-muted)]">
            Access codes are provided upon enrollment. Contact support if you need assistance.
          </p>
          <p className="mt-2 text-sm text-[var(--color-muted)]">
            Support:{" "}
            <a href={`mailto:${CONTACT_EMAIL}`} className="text-[var(--color-ink)] underline underline-offset-4">
              {CONTACT_EMAIL}
            </a>
          </p>
        </section>
      )}
      {!auth.isAuthenticated && (
        <div className={auth.isLoading ? "anon-only" : undefined}>
          <NotebookDownload key={ended?.given.login ?? ""} given={ended?.notebookKept ? ended.given : undefined} />
        </div>
      )}
      {!auth.isLoading && sheetIn && (
        <LevelTeasers chapters={allChapters} held={auth.isAuthenticated ? auth.accessLevel : null} className={`${card} mt-6`} />
      )}
    </div>
  );
}
