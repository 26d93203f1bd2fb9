/**
 * The notebook's dialogs and forms (issues 32 and 42), shared by the chapter page's Notebook
 * island, /profile's notebook and /resume's download: starting a notebook (a passphrase, then the
 * recovery key shown once), opening it on a device (the passphrase, or the recovery key and a new
 * passphrase), a new recovery key when the first was never kept, starting over, and choosing
 * between two devices' versions of a note.
 */
import { useEffect, useId, useRef, useState, type ReactNode, type SubmitEvent } from "react";
import { WrongSecretError } from "../../lib/notebook/crypto.ts";
import { isCodeSecret } from "../../lib/notebook/code-secrets.ts";
import { CODE_SECRET_PASSPHRASE, loadEstimator, strengthOf, WEAK_PASSPHRASE, type PassphraseStrength } from "../../lib/notebook/passphrase.ts";
import { newRecoveryKey, openWithPassphrase, replaceForgottenPassphrase, startNotebook, type NotebookInfo } from "../../lib/notebook/client.ts";
import type { ConflictChoice } from "../../lib/notebook/chapter-notebook.ts";
import { downloadFile } from "../../lib/notebook/export.ts";
import { errorMessage } from "../../lib/api-client.ts";
import { notify } from "../../lib/notify.ts";

export const field =
  "mt-1 w-full rounded-md border border-[var(--color-line)] bg-[var(--color-page)] px-3 py-2 text-[var(--color-ink)] outline-none focus-visible:ring-2 focus-visible:ring-[var(--color-accent)] disabled:opacity-60";
export const primary = "cta-button";
export const quiet = "button-quiet";
/** An action that erases (issue 42: 8): never the default, and drawn as what it is. */
export const destructive = "button-destructive";
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

/** Why a form cannot go on, said where a screen reader hears it at once; nothing without one. */
export function Problem({ text }: { text: string | null }) {
  return (
    text && (
      <p role="alert" className="text-sm text-red-700 dark:text-red-400">
        {text}
      </p>
    )
  );
}

/** The notebook's passphrase, typed to open it. */
export function CurrentPassphrase({ value, onChange, label = "Notebook passphrase" }: { value: string; onChange: (value: string) => void; label?: string }) {
  return (
    <label className="block text-sm font-medium">
      {label}
      <input className={field} type="password" autoComplete="current-password" value={value} onChange={(e) => onChange(e.target.value)} data-autofocus />
    </label>
  );
}

/** A passphrase's strength as it is typed, from the estimator (fetched once it is needed); null until it is here. */
function useStrength(passphrase: string): PassphraseStrength | null {
  const [estimate, setEstimate] = useState<{ of: string; strength: PassphraseStrength } | null>(null);
  useEffect(() => {
    let current = true;
    void loadEstimator().then(
      (score) => current && setEstimate({ of: passphrase, strength: strengthOf(score(passphrase)) }),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [passphrase]);
  return estimate?.of === passphrase ? estimate.strength : null;
}

/** A new passphrase, typed twice, with its strength shown as it is typed (the rule's own figure). */
export function NewPassphrase({ label, value, onChange, again, onAgain }: { label: string; value: string; onChange: (v: string) => void; again: string; onAgain: (v: string) => void }) {
  const strength = useStrength(value);
  const score = strength?.score ?? 0;
  return (
    <>
      <label className="block text-sm font-medium">
        {label}
        <input className={field} type="password" autoComplete="new-password" value={value} onChange={(e) => onChange(e.target.value)} data-autofocus />
      </label>
      <div aria-live="polite" className="flex items-center gap-3">
        <span className="flex h-1.5 flex-1 gap-1" aria-hidden="true">
          {[1, 2, 3, 4].map((step) => (
            <span key={step} className={`h-full flex-1 rounded-full ${score >= step ? "bg-[var(--color-accent)]" : "bg-[var(--color-line)]"}`} />
          ))}
        </span>
        <span className="text-xs text-[var(--color-muted)]" data-testid="passphrase-strength">
          Strength: {value ? (strength?.label ?? "checking…") : "—"}
        </span>
      </div>
      <label className="block text-sm font-medium">
        {label} again
        <input className={field} type="password" autoComplete="new-password" value={again} onChange={(e) => onAgain(e.target.value)} />
      </label>
      <p className={muted}>
        It must be rated Good or Strong: a few words that do not go together make one. Not your access code or its password, which the
        operator knows. It is never sent to the server, and nobody can reset it for you: keep it, and keep your recovery key.
      </p>
    </>
  );
}

/** Why a new passphrase cannot be taken, or null: the estimator's figure (the meter's), the code's own secrets, the second typing. */
export async function passphraseProblem(passphrase: string, again: string): Promise<string | null> {
  const score = await loadEstimator();
  if (!strengthOf(score(passphrase)).ok) return WEAK_PASSPHRASE;
  if (await isCodeSecret(passphrase)) return CODE_SECRET_PASSPHRASE;
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
    setBusy(true);
    try {
      const wrong = await passphraseProblem(passphrase, again);
      setProblem(wrong);
      if (wrong) return setBusy(false);
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
      <Problem text={problem} />
      <button type="submit" className={`${primary} w-full`} disabled={busy}>
        {busy ? "Starting..." : "Start my notebook"}
      </button>
    </form>
  );
}

/**
 * The recovery key, shown once: copy it, download it, and show it is kept by typing its last
 * group (a wrong one is said so). Its eight groups break only between groups: two lines of four
 * on a phone.
 */
export function RecoveryKey({ recoveryKey, onKept, of = "your notebook" }: { recoveryKey: string; onKept: () => void; of?: string }) {
  const [copied, setCopied] = useState(false);
  const [check, setCheck] = useState("");
  const [wrong, setWrong] = useState(false);
  const last = recoveryKey.slice(-4);
  const groups = recoveryKey.split("-");
  const half = Math.ceil(groups.length / 2);
  function onSubmit(event: SubmitEvent) {
    event.preventDefault();
    if (check.trim().toUpperCase() === last) onKept();
    else setWrong(true);
  }
  return (
    <div className="space-y-4">
      <p className={muted}>
        If you ever forget your passphrase, this key is the only other way into {of}. It is shown only now: copy it or download it,
        and keep it somewhere safe, away from this device.
      </p>
      <p className="rounded-md border border-[var(--color-accent)] bg-[var(--color-page)] p-4 text-center font-mono text-lg tracking-wider" data-testid="recovery-key">
        <span className="whitespace-nowrap">{groups.slice(0, half).join("-")}</span>-<wbr />
        <span className="whitespace-nowrap">{groups.slice(half).join("-")}</span>
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
      <form className="space-y-4" onSubmit={onSubmit} noValidate>
        <label className="block text-sm font-medium">
          Type the last four characters of your recovery key
          <input
            className={field}
            value={check}
            onChange={(e) => {
              setCheck(e.target.value);
              setWrong(false);
            }}
            autoComplete="off"
            aria-invalid={wrong}
            aria-describedby={wrong ? "recovery-check-problem" : undefined}
          />
        </label>
        {wrong && (
          <p id="recovery-check-problem" role="alert" className="text-sm text-red-700 dark:text-red-400">
            Those are not the last four characters of your recovery key. Look at its last group, after the last dash.
          </p>
        )}
        <button type="submit" className={`${primary} w-full`} disabled={!check.trim()}>
          I have kept it
        </button>
      </form>
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
    void attempt(async () => {
      const wrong = await passphraseProblem(passphrase, again);
      if (wrong) throw new Error(wrong);
      const replaced = await replaceForgottenPassphrase(info, recoveryKey, passphrase);
      notify({ title: "New passphrase set", description: "Your notebook now opens with your new passphrase, on every device. Your recovery key still works." });
      return replaced;
    });
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
        <CurrentPassphrase value={passphrase} onChange={setPassphrase} />
      )}
      <Problem text={problem} />
      <button type="submit" className={`${primary} w-full`} disabled={busy || passphrase === ""}>
        {busy ? "Opening..." : recovering ? "Open and keep the new passphrase" : "Open my notebook"}
      </button>
      <div className="flex flex-wrap justify-between gap-3 text-sm">
        <button
          type="button"
          className="underline underline-offset-4"
          onClick={() => {
            // (Each way starts empty: the passphrase typed for one is never offered as the other's new one.)
            setRecovering(!recovering);
            setPassphrase("");
            setAgain("");
            setRecoveryKey("");
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
        <button type="button" className={quiet} onClick={onCancel} data-autofocus>
          Keep it
        </button>
        <button
          type="button"
          className={destructive}
          disabled={busy}
          onClick={() => {
            setBusy(true);
            void onConfirm().finally(() => setBusy(false));
          }}
        >
          {busy ? "Erasing..." : erasing ? "Erase my notebook" : "Erase it and start a new notebook"}
        </button>
      </div>
    </div>
  );
}

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

/**
 * A new recovery key, when the first was never shown kept (the tab closed before): the passphrase
 * opens the notebook, and the key is wrapped anew with a new recovery key (the old one stops
 * working), shown once next.
 */
export function RenewForm({ info, onRenewed, onLater }: { info: NotebookInfo; onRenewed: (renewed: { info: NotebookInfo; key: CryptoKey; recoveryKey: string }) => void; onLater: () => void }) {
  const [passphrase, setPassphrase] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function onSubmit(event: SubmitEvent) {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      onRenewed(await newRecoveryKey(info, passphrase));
    } catch (error) {
      setProblem(error instanceof WrongSecretError ? "That passphrase does not open this notebook." : errorMessage(error));
      setBusy(false);
    }
  }
  return (
    <form className="space-y-4" onSubmit={(e) => void onSubmit(e)} noValidate>
      <p>
        Your recovery key was never confirmed as kept: the notebook was started, but its recovery key was not shown kept. If you forget your
        passphrase without it, nobody can open your notebook. Make a new recovery key now: the one shown before stops working.
      </p>
      <CurrentPassphrase value={passphrase} onChange={setPassphrase} />
      <Problem text={problem} />
      <div className="flex flex-wrap gap-3">
        <button type="submit" className={primary} disabled={busy || !passphrase}>
          {busy ? "Making it..." : "Make a new recovery key"}
        </button>
        <button type="button" className={quiet} onClick={onLater}>
          Not now
        </button>
      </div>
    </form>
  );
}
