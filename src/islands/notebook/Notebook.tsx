/**
 * The chapter page's notebook (issue 32). It wakes when a reader reaches for a subsection's Note
 * (client:interaction, `data-wake` on each Note), or once the page is idle when notes wait for
 * this chapter (the page script), and takes over the Notes the server rendered
 * (src/lib/chapter-body.ts renderNote): their boxes opened and typed into before it woke
 * included.
 *
 * - A member's notes are sealed in this browser under the notebook key (src/lib/notebook) and
 *   saved as they type (after a pause), each over the version it was read at. The status line says
 *   "Saving…", "Saved" or "Not saved yet: will retry"; a save that could not reach the server
 *   stays in this browser, sealed, and is sent when the connection returns, also after a reload.
 *   A save refused because another device changed the note shows both texts to keep one, the
 *   other, or both. Leaving the page with anything unsaved asks first.
 * - The first Note a member opens asks for what the notebook needs: a passphrase to start one
 *   (and its recovery key, shown once), or, on a new device, the passphrase that opens it.
 * - A reader not signed in writes notes kept in this browser only (said so beside the box); once
 *   signed in, the page offers to move them into the encrypted notebook.
 */
import { useEffect, useRef, useState } from "react";
import { ApiError } from "../../lib/api-client.ts";
import type { NotePlain } from "../../lib/notebook/crypto.ts";
import { forgetKeys } from "../../lib/notebook/device-keys.ts";
import {
  anonymousNotes,
  deviceKey,
  notebookApi,
  readLocalNotes,
  readNote,
  saveNote,
  writeLocalNote,
  type LocalNote,
  type NotebookInfo,
  type StoredNote,
} from "../../lib/notebook/client.ts";
import { sealNote, openNote } from "../../lib/notebook/crypto.ts";
import { $auth, restoreAuth } from "../../stores/auth.ts";
import { bothTexts, ConflictForm, ModalDialog, primary, quiet, RecoveryKey, RestartForm, SetupForm, UnlockForm, type ConflictChoice } from "./forms.tsx";

export const SAVING = "Saving…";
export const SAVED = "Saved";
export const RETRY = "Not saved yet: will retry";
export const LOCAL_ONLY = "Kept in this browser only. Sign in to keep your notes in your encrypted notebook.";
/** How long typing must pause before a save. */
const PAUSE_MS = 800;

type Ask =
  | { kind: "setup" }
  | { kind: "recovery"; recoveryKey: string }
  | { kind: "unlock"; info: NotebookInfo }
  | { kind: "restart"; info: NotebookInfo }
  | { kind: "conflict"; mine: string; theirs: string };
type Answer =
  | { kind: "started"; info: NotebookInfo; key: CryptoKey; recoveryKey: string }
  | { kind: "opened"; info: NotebookInfo; key: CryptoKey }
  | { kind: "restart" }
  | { kind: "confirmed" }
  | { kind: "chosen"; choice: ConflictChoice }
  | { kind: "closed" };

/** One subsection's Note on the page. */
interface NoteControl {
  id: number;
  details: HTMLDetailsElement;
  box: HTMLTextAreaElement;
  status: HTMLElement;
  title: string;
  sectionSlug: string;
  /** The server's version of this note (0: none). */
  version: number;
  /** The text as the server (or, for an anonymous reader, this browser) keeps it. */
  saved: string;
  /** A stored note not opened yet (the key was not here). */
  sealed: StoredNote | null;
  timer?: ReturnType<typeof setTimeout>;
  saving: boolean;
  again: boolean;
  retryMs: number;
}

class NotebookEngine {
  private readonly controls = new Map<number, NoteControl>();
  private readonly chapter: { slug: string; title: string; level: string };
  private member = false;
  private info: NotebookInfo | null = null;
  private key: CryptoKey | null = null;
  private opening: Promise<CryptoKey | null> | null = null;
  /** The start: who reads, and this device's key if it keeps one. A Note reached meanwhile waits for it. */
  private starting: Promise<void> | null = null;
  /** The member closed the notebook's question: typing asks again only once they reach for a Note again. */
  private declined = false;
  private readonly cleanups: Array<() => void> = [];

  private readonly ask: (question: Ask) => Promise<Answer>;
  private readonly offerMove: (count: number) => void;

  constructor(ask: (question: Ask) => Promise<Answer>, offerMove: (count: number) => void) {
    this.ask = ask;
    this.offerMove = offerMove;
    const article = document.querySelector<HTMLElement>("[data-chapter-slug]")!;
    this.chapter = {
      slug: article.dataset.chapterSlug!,
      title: article.querySelector("h1")?.textContent?.trim() ?? "",
      level: article.dataset.chapterLevel ?? "Operator",
    };
    for (const details of article.querySelectorAll<HTMLDetailsElement>("details.note[data-note]")) {
      const section = details.closest("section")!;
      const control: NoteControl = {
        id: Number(details.dataset.note),
        details,
        box: details.querySelector("textarea")!,
        status: details.querySelector(".note-status")!,
        title: section.dataset.subsection ?? "",
        sectionSlug: section.id,
        version: 0,
        saved: "",
        sealed: null,
        saving: false,
        again: false,
        retryMs: 2000,
      };
      this.controls.set(control.id, control);
      this.listen(details, "toggle", () => details.open && void this.reached(control));
      this.listen(control.box, "focus", () => void this.reached(control));
      this.listen(control.box, "input", () => this.edited(control));
    }
    this.listen(window, "online", () => this.resendAll());
    this.listen(window, "beforeunload", (event) => {
      if ([...this.controls.values()].some((c) => this.unsaved(c))) event.preventDefault();
    });
  }

  private listen(target: EventTarget, type: string, handler: (event: Event) => void): void {
    target.addEventListener(type, handler);
    this.cleanups.push(() => target.removeEventListener(type, handler));
  }

  stop(): void {
    for (const cleanup of this.cleanups) cleanup();
    for (const control of this.controls.values()) clearTimeout(control.timer);
  }

  start(): Promise<void> {
    return (this.starting ??= this.begin());
  }

  private async begin(): Promise<void> {
    await restoreAuth();
    const { isAuthenticated } = $auth.get();
    this.member = isAuthenticated && !document.documentElement.dataset.previewTier;
    if (!this.member) {
      // Signed out since: the notebook's key leaves this device (as it does at sign-out).
      void forgetKeys();
      const local = readLocalNotes()[this.chapter.slug] ?? {};
      for (const control of this.controls.values()) {
        control.status.textContent = LOCAL_ONLY;
        const kept = local[String(control.id)]?.note?.text ?? "";
        control.saved = kept;
        if (kept && !control.box.value) control.box.value = kept;
        else if (control.box.value !== kept) this.edited(control);
        this.mark(control);
      }
      return;
    }
    // What the reader did before this woke: a Note opened (its toggle came before the island), typing in it.
    const reached = [...this.controls.values()].find((control) => control.details.open);
    // Notes this browser kept before the member signed in: offered to move into the notebook.
    const moving = anonymousNotes().length;
    if (moving > 0) this.offerMove(moving);
    try {
      const { notebook, notes } = await notebookApi.chapter(this.chapter.slug);
      this.info = notebook;
      if (!this.info) {
        if (reached) void this.reached(reached);
        return;
      }
      this.key = await deviceKey(this.info);
      for (const stored of notes) {
        const control = this.controls.get(stored.subsectionId);
        if (!control) continue;
        control.version = stored.version;
        control.sealed = stored;
        control.details.dataset.hasNote = "";
      }
      if (this.key) await this.openSealed();
      else if (reached) void this.reached(reached);
    } catch {
      for (const control of this.controls.values()) if (control.details.open) control.status.textContent = RETRY;
    }
  }

  /** The reader opened a Note or went into its box: a member's notebook must be open (started, or unlocked here). */
  private async reached(control: NoteControl, asked = true): Promise<void> {
    // Not before the start has looked for this device's key: a Note opened while it looks must not ask for the passphrase.
    await this.starting;
    if (!this.member || this.key || (!asked && this.declined)) return;
    const key = await this.openNotebook();
    this.declined = !key;
    if (key) this.edited(control, true);
  }

  /** The notebook key, asking the member for what it needs (one question at a time); null when they close it. */
  openNotebook(): Promise<CryptoKey | null> {
    if (this.key) return Promise.resolve(this.key);
    this.opening ??= (async () => {
      try {
        this.info ??= await notebookApi.get();
        for (;;) {
          const answer = this.info ? await this.ask({ kind: "unlock", info: this.info }) : await this.ask({ kind: "setup" });
          if (answer.kind === "started") {
            await this.ask({ kind: "recovery", recoveryKey: answer.recoveryKey });
            this.info = answer.info;
            this.key = answer.key;
          } else if (answer.kind === "opened") {
            this.info = answer.info;
            this.key = answer.key;
          } else if (answer.kind === "restart" && this.info) {
            const confirmed = await this.ask({ kind: "restart", info: this.info });
            if (confirmed.kind !== "confirmed") continue;
            await notebookApi.erase();
            this.info = null;
            for (const control of this.controls.values()) {
              Object.assign(control, { version: 0, sealed: null, saved: "" });
              this.mark(control);
            }
            continue;
          } else {
            return null;
          }
          await this.openSealed();
          return this.key;
        }
      } finally {
        this.opening = null;
      }
    })();
    return this.opening;
  }

  /** Decrypts the notes read before the key was here, and what this browser holds unsent; sends what is newer. */
  private async openSealed(): Promise<void> {
    const local = readLocalNotes()[this.chapter.slug] ?? {};
    for (const control of this.controls.values()) {
      if (control.sealed) {
        const stored = control.sealed;
        control.sealed = null;
        const theirs = (await readNote(this.key!, stored)).text;
        control.saved = theirs;
        const typed = control.box.value;
        if (!typed) control.box.value = theirs;
        else if (typed !== theirs) await this.resolve(control, typed, theirs);
      }
      const pending = local[String(control.id)]?.pending;
      if (pending && pending.notebook === this.info!.id) {
        try {
          const mine = await openNote(this.key!, control.id, pending.version + 1, pending.sealed);
          if (mine.text !== control.saved) control.box.value = mine.text;
        } catch {
          writeLocalNote(this.chapter.slug, control.id, null);
        }
      }
      this.mark(control);
      if (this.unsaved(control)) this.edited(control, true);
    }
  }

  private plain(control: NoteControl, text: string): NotePlain {
    return { text, title: control.title, chapterSlug: this.chapter.slug, chapterTitle: this.chapter.title, sectionSlug: control.sectionSlug, level: this.chapter.level };
  }

  private unsaved(control: NoteControl): boolean {
    return control.saving || control.box.value !== control.saved;
  }

  private mark(control: NoteControl): void {
    if (control.version > 0 || control.saved.trim() || control.sealed) control.details.dataset.hasNote = "";
    else delete control.details.dataset.hasNote;
  }

  /** The reader typed (or text is waiting to be sent): kept at once in this browser, sent after a pause. */
  private edited(control: NoteControl, now = false): void {
    const text = control.box.value;
    if (!this.member) {
      const local: LocalNote | null = text.trim() ? { note: this.plain(control, text), at: new Date().toISOString() } : null;
      writeLocalNote(this.chapter.slug, control.id, local);
      control.saved = text;
      this.mark(control);
      return;
    }
    if (!this.key) {
      // Kept in this browser until the notebook is open here (then sent, and forgotten here).
      writeLocalNote(this.chapter.slug, control.id, text.trim() ? { note: this.plain(control, text), at: new Date().toISOString() } : null);
      control.status.textContent = RETRY;
      if (text !== control.saved) void this.reached(control, false);
      return;
    }
    control.status.textContent = text === control.saved ? SAVED : SAVING;
    // Sealed and kept in this browser before it is sent: a crash or a lost connection loses nothing.
    const version = control.version;
    const info = this.info!;
    void sealNote(this.key, control.id, version + 1, this.plain(control, text)).then((sealed) => {
      if (control.box.value === text && text !== control.saved) writeLocalNote(this.chapter.slug, control.id, { pending: { notebook: info.id, version, sealed }, at: new Date().toISOString() });
    });
    clearTimeout(control.timer);
    control.timer = setTimeout(() => void this.send(control), now ? 0 : PAUSE_MS);
  }

  private resendAll(): void {
    for (const control of this.controls.values()) if (this.member && this.key && control.box.value !== control.saved) this.edited(control, true);
  }

  private async send(control: NoteControl): Promise<void> {
    if (control.saving) {
      control.again = true;
      return;
    }
    const text = control.box.value;
    if (text === control.saved) {
      control.status.textContent = control.details.open || control.version > 0 ? SAVED : "";
      writeLocalNote(this.chapter.slug, control.id, null);
      return;
    }
    control.saving = true;
    control.status.textContent = SAVING;
    try {
      if (!text.trim() && control.version > 0) {
        await notebookApi.remove(control.id, control.version);
        control.version = 0;
      } else {
        control.version = (await saveNote(this.key!, control.id, control.version, this.plain(control, text))).version;
      }
      control.saved = text;
      control.retryMs = 2000;
      if (control.box.value === text) writeLocalNote(this.chapter.slug, control.id, null);
      control.status.textContent = SAVED;
      this.mark(control);
    } catch (error) {
      await this.failed(control, text, error);
    } finally {
      control.saving = false;
      if (control.again) {
        control.again = false;
        void this.send(control);
      }
    }
  }

  private async failed(control: NoteControl, text: string, error: unknown): Promise<void> {
    if (error instanceof ApiError && error.code === "note_changed") {
      const current = error.details.current as StoredNote | null;
      control.version = current?.version ?? 0;
      control.saved = current ? (await readNote(this.key!, current)).text : "";
      return this.resolve(control, text, control.saved);
    }
    if (error instanceof ApiError && error.status < 500 && ![401, 408, 429].includes(error.status)) {
      // Refused for good (the passage is no longer open to the member, say): kept here, and said.
      control.status.textContent = `Not saved: ${error.text}`;
      return;
    }
    control.status.textContent = RETRY;
    clearTimeout(control.timer);
    control.timer = setTimeout(() => void this.send(control), control.retryMs);
    control.retryMs = Math.min(control.retryMs * 2, 60_000);
  }

  /** Two versions of a note: the member keeps one, the other or both; nothing is dropped meanwhile. */
  private async resolve(control: NoteControl, mine: string, theirs: string): Promise<void> {
    control.details.open = true;
    const answer = await this.ask({ kind: "conflict", mine, theirs });
    const choice = answer.kind === "chosen" ? answer.choice : "both";
    control.box.value = choice === "mine" ? mine : choice === "theirs" ? theirs : bothTexts(mine, theirs);
    this.mark(control);
    this.edited(control, true);
  }

  /** Moves the notes this browser kept before sign-in into the notebook (a note already there keeps both texts). */
  async moveAnonymousNotes(): Promise<number> {
    const key = await this.openNotebook();
    if (!key) return anonymousNotes().length;
    let left = 0;
    for (const { chapterSlug, subsectionId, note } of anonymousNotes()) {
      try {
        await saveNote(key, subsectionId, 0, note);
      } catch (error) {
        const current = error instanceof ApiError && error.code === "note_changed" ? (error.details.current as StoredNote | null) : undefined;
        if (!current) {
          left++;
          continue;
        }
        const theirs = await readNote(key, current);
        await saveNote(key, subsectionId, current.version, { ...theirs, text: bothTexts(theirs.text, note.text) });
      }
      writeLocalNote(chapterSlug, subsectionId, null);
    }
    await this.refresh();
    return left;
  }

  /** Reads this chapter's notes again (after moving notes into it). */
  private async refresh(): Promise<void> {
    for (const stored of (await notebookApi.chapter(this.chapter.slug)).notes) {
      const control = this.controls.get(stored.subsectionId);
      if (!control || control.box.value !== control.saved) continue;
      control.version = stored.version;
      control.saved = control.box.value = (await readNote(this.key!, stored)).text;
      this.mark(control);
    }
  }
}

export default function Notebook() {
  const [question, setQuestion] = useState<{ ask: Ask; answer: (answer: Answer) => void } | null>(null);
  const [moving, setMoving] = useState(0);
  const [moveState, setMoveState] = useState<"offer" | "moving" | "left">("offer");
  const engine = useRef<NotebookEngine | null>(null);

  useEffect(() => {
    const ask = (next: Ask) => new Promise<Answer>((resolve) => setQuestion({ ask: next, answer: resolve }));
    const started = new NotebookEngine(ask, setMoving);
    engine.current = started;
    void started.start();
    return () => started.stop();
  }, []);

  const answer = (value: Answer) => {
    question?.answer(value);
    setQuestion(null);
  };
  const closed = () => answer({ kind: "closed" });

  return (
    <>
      {question?.ask.kind === "setup" && (
        <ModalDialog title="Start your notebook" onClose={closed}>
          <SetupForm onStarted={(started) => answer({ kind: "started", ...started })} />
        </ModalDialog>
      )}
      {question?.ask.kind === "recovery" && (
        <ModalDialog title="Your recovery key">
          <RecoveryKey recoveryKey={question.ask.recoveryKey} onKept={() => answer({ kind: "confirmed" })} />
        </ModalDialog>
      )}
      {question?.ask.kind === "unlock" && (
        <ModalDialog title="Open your notebook" onClose={closed}>
          <UnlockForm info={question.ask.info} onOpened={(opened) => answer({ kind: "opened", ...opened })} onRestart={() => answer({ kind: "restart" })} />
        </ModalDialog>
      )}
      {question?.ask.kind === "restart" && (
        <ModalDialog title="Start a new notebook?" role="alertdialog" onClose={closed}>
          <RestartForm notes={question.ask.info.notes} onConfirm={async () => answer({ kind: "confirmed" })} onCancel={closed} />
        </ModalDialog>
      )}
      {question?.ask.kind === "conflict" && (
        <ModalDialog title="Two versions of this note" onClose={() => answer({ kind: "chosen", choice: "both" })}>
          <ConflictForm mine={question.ask.mine} theirs={question.ask.theirs} onChoose={(choice) => answer({ kind: "chosen", choice })} />
        </ModalDialog>
      )}
      {moving > 0 && (
        <div role="region" aria-label="Notes kept in this browser" className="fixed right-4 bottom-4 left-4 z-40 rounded-lg border border-[var(--color-line)] bg-[var(--color-panel)] p-4 shadow-lg sm:left-auto sm:max-w-sm">
          <p className="text-sm">
            {moveState === "left"
              ? "Some notes could not be moved (their passage is not open to you): they stay in this browser."
              : `You wrote ${moving} ${moving === 1 ? "note" : "notes"} before signing in. ${moving === 1 ? "It is" : "They are"} kept only in this browser.`}
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            {moveState !== "left" && (
              <button
                type="button"
                className={primary}
                disabled={moveState === "moving"}
                onClick={() => {
                  setMoveState("moving");
                  void engine.current!.moveAnonymousNotes().then(
                    (left) => (left > 0 ? setMoveState("left") : setMoving(0)),
                    () => setMoveState("offer"),
                  );
                }}
              >
                {moveState === "moving" ? "Moving..." : "Move them into my notebook"}
              </button>
            )}
            <button type="button" className={quiet} onClick={() => setMoving(0)}>
              Not now
            </button>
          </div>
        </div>
      )}
    </>
  );
}
