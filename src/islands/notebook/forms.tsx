/**
 * The notebook's dialogs and forms (issue 32), shared by the chapter page's Notebook island,
 * /profile's notebook and /resume's download: starting a notebook (a passphrase, then the
 * recovery key shown once), opening it on a device (the passphrase, or the recovery key and a new
 * passphrase), starting over, and choosing between two devices' versions of a note.
 */
import { useEffect, useId, useRef, useState, type ReactNode, type SubmitEvent } from "react";
import { MIN_PASSPHRASE_LENGTH, passphraseStrength, WrongSecretError } from "../../lib/notebook/crypto.ts";
import { openWithPassphrase, replaceForgottenPassphrase, startNotebook, type NotebookInfo } from "../../lib/notebook/client.ts";
import { downloadFile } from "../../lib/notebook/export.ts";
import { errorMessage } from "../../lib/api-client.ts";

export const field =
  "mt-1 w-full rounded-md border border-[var(--color-line)] bg-[var(--color-page)] px-3 py-2 text-[var(--color-ink)] outline-none focus-visible:ring-2 focus-visible:ring-[var(--color-accent)] disabled:opacity-60";
export const primary = "cta-button";
export const quiet = "button-quiet";
const muted = "text-sm text-[var(--color-muted)]";

/** What the notebook's encryption protects against, and what it cannot: said where it is set up and opened. */
export function Protection() {
  return (
    <p className={muted}>
      Your notes are encrypted in this browser before they are sent, under a key that only your passphrase or your recovery key opens. The
      site&apos;s server, its database, its backups and its logs hold only that encrypted text: nobody who runs or reaches them can read
      your notes, the programme&apos;s operator included, who issued your access code but never learns your passphrase. What this cannot
      protect against: a version of this site whose code was changed to read what you type before it is encrypted.
    </p>
  );
}

/**
 * A modal dialog on the native <dialog>: focus inside, Escape closes, focus returns to what opened
 * it. Without `onClose` it cannot be closed but by its own answer (the recovery key's).
 */
export function ModalDialog({ title, onClose, children, role }: { title: string; onClose?: () => void; children: ReactNode; role?: "alertdialog" }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current!;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.showModal();
    dialog.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    return () => {
      if (dialog.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      role={role}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose?.();
      }}
      className="m-auto max-h-[calc(100dvh-2rem)] w-[min(34rem,calc(100vw-2rem))] overflow-y-auto rounded-lg border border-[var(--color-line)] bg-[var(--color-panel)] p-0 text-[var(--color-ink)] backdrop:bg-black/60"
    >
      <div className="p-6">
        <div className="flex items-start justify-between gap-4">
          <h2 id={titleId} className="font-serif text-xl">
            {title}
          </h2>
          {onClose && (
            <button type="button" className="rounded-md p-1.5 hover:bg-[var(--color-line)]" aria-label="Close" onClick={onClose}>
              <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.75" aria-hidden="true">
                <path d="M6 6l12 12M18 6L6 18" />
              </svg>
            </button>
          )}
        </div>
        <div className="mt-4 space-y-4">{children}</div>
      </div>
    </dialog>
  );
}

/** A new passphrase, typed twice, with its strength shown as it is typed. */
function NewPassphrase({ label, value, onChange, again, onAgain }: { label: string; value: string; onChange: (v: string) => void; again: string; onAgain: (v: string) => void }) {
  const strength = passphraseStrength(value);
  return (
    <>
      <label className="block text-sm font-medium">
        {label}
        <input className={field} type="password" autoComplete="new-password" value={value} onChange={(e) => onChange(e.target.value)} data-autofocus />
      </label>
      <div aria-live="polite" className="flex items-center gap-3">
        <span className="flex h-1.5 flex-1 gap-1" aria-hidden="true">
          {[1, 2, 3, 4].map((step) => (
            <span key={step} className={`h-full flex-1 rounded-full ${strength.score >= step ? "bg-[var(--color-accent)]" : "bg-[var(--color-line)]"}`} />
          ))}
        </span>
        <span className="text-xs text-[var(--color-muted)]" data-testid="passphrase-strength">
          Strength: {strength.label}
        </span>
      </div>
      <label className="block text-sm font-medium">
        {label} again
        <input className={field} type="password" autoComplete="new-password" value={again} onChange={(e) => onAgain(e.target.value)} />
      </label>
      <p className={muted}>
        At least {MIN_PASSPHRASE_LENGTH} characters. It is never sent to the server, and nobody can reset it for you: keep it, and keep your
        recovery key.
      </p>
    </>
  );
}

/** Why a new passphrase cannot be taken yet, or null. */
function passphraseProblem(passphrase: string, again: string): string | null {
  if (!passphraseStrength(passphrase).ok) return `The passphrase needs at least ${MIN_PASSPHRASE_LENGTH} characters.`;
  if (passphrase !== again) return "The two passphrases are not the same.";
  return null;
}

/** Starts the member's notebook: a passphrase, then the recovery key shown once (RecoveryKey). */
export function SetupForm({ onStarted }: { onStarted: (started: { info: NotebookInfo; key: CryptoKey; recoveryKey: string }) => void }) {
  const [passphrase, setPassphrase] = useState("");
  const [again, setAgain] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function onSubmit(event: SubmitEvent) {
    event.preventDefault();
    const wrong = passphraseProblem(passphrase, again);
    setProblem(wrong);
    if (wrong) return;
    setBusy(true);
    try {
      onStarted(await startNotebook(passphrase));
    } catch (error) {
      setProblem(errorMessage(error));
      setBusy(false);
    }
  }
  return (
    <form className="space-y-4" onSubmit={onSubmit} noValidate>
      <Protection />
      <NewPassphrase label="Notebook passphrase" value={passphrase} onChange={setPassphrase} again={again} onAgain={setAgain} />
      {problem && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {problem}
        </p>
      )}
      <button type="submit" className={`${primary} w-full`} disabled={busy}>
        {busy ? "Starting..." : "Start my notebook"}
      </button>
    </form>
  );
}

/** The recovery key, shown once: copy it, download it, and show it is kept by typing its last group. */
export function RecoveryKey({ recoveryKey, onKept }: { recoveryKey: string; onKept: () => void }) {
  const [copied, setCopied] = useState(false);
  const [check, setCheck] = useState("");
  const last = recoveryKey.slice(-4);
  const kept = check.trim().toUpperCase() === last;
  return (
    <div className="space-y-4">
      <p className={muted}>
        If you ever forget your passphrase, this key is the only other way into your notebook. It is shown only now: copy it or download it,
        and keep it somewhere safe, away from this device.
      </p>
      <p className="rounded-md border border-[var(--color-accent)] bg-[var(--color-page)] p-4 text-center font-mono text-lg tracking-wider break-all" data-testid="recovery-key">
        {recoveryKey}
      </p>
      <div className="flex flex-wrap gap-3">
        <button
          type="button"
          className={quiet}
          onClick={() =>
            void navigator.clipboard.writeText(recoveryKey).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? "Copied" : "Copy"}
        </button>
        <button type="button" className={quiet} onClick={() => downloadFile("notebook-recovery-key.txt", `Recovery key of my notebook on The System:\n${recoveryKey}\n`, "text/plain")}>
          Download
        </button>
      </div>
      <label className="block text-sm font-medium">
        Type the last four characters of your recovery key
        <input className={field} value={check} onChange={(e) => setCheck(e.target.value)} autoComplete="off" />
      </label>
      <button type="button" className={`${primary} w-full`} disabled={!kept} onClick={onKept}>
        I have kept it
      </button>
    </div>
  );
}

/**
 * Opens the notebook on this device: its passphrase; or, forgotten, the recovery key and a new
 * passphrase (the key wrapped anew); or, with neither, a new notebook (onRestart asks first).
 */
export function UnlockForm({ info, onOpened, onRestart }: { info: NotebookInfo; onOpened: (opened: { info: NotebookInfo; key: CryptoKey }) => void; onRestart: () => void }) {
  const [recovering, setRecovering] = useState(false);
  const [passphrase, setPassphrase] = useState("");
  const [recoveryKey, setRecoveryKey] = useState("");
  const [again, setAgain] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function attempt(work: () => Promise<{ info: NotebookInfo; key: CryptoKey }>) {
    setBusy(true);
    setProblem(null);
    try {
      onOpened(await work());
    } catch (error) {
      setProblem(error instanceof WrongSecretError ? (recovering ? "That recovery key does not open this notebook." : "That passphrase does not open this notebook.") : errorMessage(error));
      setBusy(false);
    }
  }
  function onSubmit(event: SubmitEvent) {
    event.preventDefault();
    if (!recovering) return void attempt(async () => ({ info, key: await openWithPassphrase(info, passphrase) }));
    const wrong = passphraseProblem(passphrase, again);
    if (wrong) return setProblem(wrong);
    void attempt(() => replaceForgottenPassphrase(info, recoveryKey, passphrase));
  }
  return (
    <form className="space-y-4" onSubmit={onSubmit} noValidate>
      <Protection />
      {recovering ? (
        <>
          <label className="block text-sm font-medium">
            Recovery key
            <input className={`${field} font-mono`} value={recoveryKey} onChange={(e) => setRecoveryKey(e.target.value)} autoComplete="off" data-autofocus />
          </label>
          <NewPassphrase label="New passphrase" value={passphrase} onChange={setPassphrase} again={again} onAgain={setAgain} />
        </>
      ) : (
        <label className="block text-sm font-medium">
          Notebook passphrase
          <input className={field} type="password" autoComplete="current-password" value={passphrase} onChange={(e) => setPassphrase(e.target.value)} data-autofocus />
        </label>
      )}
      {problem && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {problem}
        </p>
      )}
      <button type="submit" className={`${primary} w-full`} disabled={busy || passphrase === ""}>
        {busy ? "Opening..." : recovering ? "Open and keep the new passphrase" : "Open my notebook"}
      </button>
      <div className="flex flex-wrap justify-between gap-3 text-sm">
        <button
          type="button"
          className="underline underline-offset-4"
          onClick={() => {
            setRecovering(!recovering);
            setProblem(null);
          }}
        >
          {recovering ? "Use my passphrase" : "Use my recovery key"}
        </button>
        <button type="button" className="text-[var(--color-muted)] underline underline-offset-4" onClick={onRestart}>
          Start a new notebook
        </button>
      </div>
    </form>
  );
}

/**
 * Asks before the notebook is erased with its notes: to start a new one (its passphrase and
 * recovery key lost), or because the member wants it gone.
 */
export function RestartForm({ notes, onConfirm, onCancel, erasing = false }: { notes: number; onConfirm: () => Promise<void>; onCancel: () => void; erasing?: boolean }) {
  const [busy, setBusy] = useState(false);
  const count = `${notes} ${notes === 1 ? "note" : "notes"}`;
  return (
    <div className="space-y-4">
      <p>
        {erasing
          ? `Your notebook and its ${count} are erased for good, from this site and its database: nobody can bring them back. Download them first if you want to keep them.`
          : `Without your passphrase or your recovery key, nobody can open your notebook, not even the site. A new notebook starts empty, and the old one is erased with its ${count}.`}
      </p>
      <div className="flex flex-wrap gap-3">
        <button
          type="button"
          className={primary}
          disabled={busy}
          onClick={() => {
            setBusy(true);
            void onConfirm().finally(() => setBusy(false));
          }}
        >
          {busy ? "Erasing..." : erasing ? "Erase my notebook" : "Erase it and start a new notebook"}
        </button>
        <button type="button" className={quiet} onClick={onCancel}>
          Keep it
        </button>
      </div>
    </div>
  );
}

export type ConflictChoice = "mine" | "theirs" | "both";

/** Two devices' versions of a note side by side: keep one, the other, or both. */
export function ConflictForm({ mine, theirs, onChoose }: { mine: string; theirs: string; onChoose: (choice: ConflictChoice) => void }) {
  const box = "max-h-60 overflow-y-auto rounded-md border border-[var(--color-line)] bg-[var(--color-page)] p-3 text-sm whitespace-pre-wrap";
  return (
    <div className="space-y-4">
      <p className={muted}>This note was changed on another device while you were writing here. Nothing is lost: choose what to keep.</p>
      <div className="grid gap-4 sm:grid-cols-2">
        <section aria-label="Your text, on this device">
          <h3 className="text-sm font-semibold">Your text, on this device</h3>
          <div className={`${box} mt-2`} data-testid="conflict-mine">
            {mine}
          </div>
        </section>
        <section aria-label="The other device's text">
          <h3 className="text-sm font-semibold">The other device&apos;s text</h3>
          <div className={`${box} mt-2`} data-testid="conflict-theirs">
            {theirs}
          </div>
        </section>
      </div>
      <div className="flex flex-wrap gap-3">
        <button type="button" className={primary} onClick={() => onChoose("mine")} data-autofocus>
          Keep mine
        </button>
        <button type="button" className={quiet} onClick={() => onChoose("theirs")}>
          Keep theirs
        </button>
        <button type="button" className={quiet} onClick={() => onChoose("both")}>
          Keep both
        </button>
      </div>
    </div>
  );
}

/** Both versions of a note, kept: the member's own first. */
export function bothTexts(mine: string, theirs: string): string {
  return `${mine.trimEnd()}\n\n— From the other device —\n\n${theirs.trimStart()}`;
}
