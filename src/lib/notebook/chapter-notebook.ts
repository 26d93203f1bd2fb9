/**
 * The chapter page's notebook (issues 32 and 42), without React: it takes over the Notes the server
 * rendered (src/lib/chapter-body.ts renderNote), their boxes opened and typed into before it woke
 * included. The Notebook island draws its questions (dialogs) and the offer to move notes; this
 * decides, seals, saves, retries and merges.
 *
 * - A member's notes are sealed under the notebook key (client.ts) and saved as they type (after a
 *   pause), each over the version it was read at. The status line says "Saving…", "Saved" (only
 *   of text the server holds) or "Not saved yet: will retry"; a save that could not reach the
 *   server stays in this browser, sealed, and is sent when the connection returns, also after a
 *   reload. A save refused because another device changed the note shows both texts to keep one,
 *   the other, or both. Leaving the page with anything unsaved asks first.
 * - A member's words are never written to the browser's storage in the clear (issue 42: 2). Typed
 *   before the notebook is open on this device, they stay on the page, in memory, and the Note
 *   says so and offers to open the notebook; once it opens they are sealed and sent.
 * - A reader not signed in writes notes kept in this browser only (said so beside the box). Once
 *   signed in (here, or in another tab while this page is open), those notes stay on screen and
 *   move into the notebook as soon as it is open, however it is opened (issue 42: 1).
 * - A note that cannot be opened (another key) or is older than one this device has seen is said
 *   so, never shown as an empty box, and nothing is saved over it unless the member asks.
 * - A save sealed for a notebook erased since (on another device) is refused by the server: the
 *   text stays, the page says what happened, and the new notebook takes it once open.
 * - When the session ends (a 401, or signed out in another tab), everything kept for the member on
 *   this device goes (device-keys.ts `forgetThisDevice`), and what is on the page is said unkept.
 */
import { ApiError } from "../api-client.ts";
import { AUTH_KEY } from "../storage-keys.ts";
import { openNote, sealNote, type NotePlain } from "./crypto.ts";
import { forgetThisDevice } from "./device-keys.ts";
import {
  adoptBrowserNotes,
  anonymousNotes,
  deviceKey,
  FROM_THIS_BROWSER,
  keptTogether,
  notebookApi,
  pendingSaves,
  readLocalNotes,
  readNote,
  saveNote,
  sessionEnded,
  UNOPENED_TEXT,
  writeLocalNote,
  writePendingSave,
  type NotebookInfo,
  type StoredNote,
  type Unopened,
} from "./client.ts";
import { rememberVersion } from "./versions.ts";

export const SAVING = "Saving…";
export const SAVED = "Saved";
export const RETRY = "Not saved yet: will retry";
export const LOCAL_ONLY = "Kept in this browser only. Sign in to keep your notes in your encrypted notebook.";
export const HELD = "Not kept yet: it is only on this page until your notebook is open on this device.";
export const BROWSER_HELD = "Written in this browser before you signed in: it moves into your notebook once it is open.";
export const ENDED = "You are signed out, so this note is not kept: sign in again to keep it. Leaving this page loses it.";
export const NOTEBOOK_GONE = "Not saved: your notebook was erased on another device. Your text stays on this page: open your notebook to keep it.";
export const WRITE_OVER = "Write a new note over it";
/** How long typing must pause before a save. */
const PAUSE_MS = 800;

/** The conflict dialog's choices. */
export type ConflictChoice = "mine" | "theirs" | "both";

/** What the notebook asks the member, through the island's dialogs. */
export type Ask =
  | { kind: "setup" }
  | { kind: "recovery"; recoveryKey: string }
  | { kind: "unlock"; info: NotebookInfo }
  | { kind: "restart"; info: NotebookInfo }
  | { kind: "renew"; info: NotebookInfo }
  | { kind: "conflict"; mine: string; theirs: string };
export type Answer =
  | { kind: "started"; info: NotebookInfo; key: CryptoKey; recoveryKey: string }
  | { kind: "opened"; info: NotebookInfo; key: CryptoKey }
  | { kind: "renewed"; info: NotebookInfo; key: CryptoKey; recoveryKey: string }
  | { kind: "restart" }
  | { kind: "confirmed" }
  | { kind: "chosen"; choice: ConflictChoice }
  | { kind: "closed" };

/** Both versions of a note, kept: the member's own first. */
export const bothTexts = (mine: string, theirs: string) => keptTogether(mine, theirs, "From the other device");

/** What the page tells its island. */
export interface NotebookHost {
  /** Asks the member (one question at a time). */
  ask(question: Ask): Promise<Answer>;
  /** Notes this browser keeps from before sign-in: how many, and whether some could not be moved in (0: none left). */
  browserNotes(count: number, left: boolean): void;
  /** Whether a member is signed in, as this page's session check found (a preview never is). */
  signedIn(): Promise<boolean>;
  /** Whether a member is signed in, as stored now (another tab may have signed in or out). */
  storedSignedIn(): boolean;
}

/** One subsection's Note on the page. */
interface NoteControl {
  id: number;
  details: HTMLDetailsElement;
  box: HTMLTextAreaElement;
  status: HTMLElement;
  /** The Note's one action beside its status (open the notebook, write over an unopened note), made when first needed. */
  action?: HTMLButtonElement;
  title: string;
  sectionSlug: string;
  /** The server's version of this note (0: none; an erased note keeps its version). */
  version: number;
  /** The text as the server (or, for an anonymous reader, this browser) keeps it. */
  saved: string;
  /** A stored note not opened yet (the key was not here). */
  sealed: StoredNote | null;
  /** Why the stored note cannot be shown (nothing is saved over it unasked), or null. */
  blocked: Unopened | null;
  /** This browser's note from before sign-in shown in the box, until the notebook holds it. */
  browserText: string | null;
  timer?: ReturnType<typeof setTimeout>;
  saving: boolean;
  again: boolean;
  retryMs: number;
}

export class ChapterNotebook {
  private readonly controls = new Map<number, NoteControl>();
  private readonly chapter: { slug: string; title: string; level: string };
  private member = false;
  /** The member's session ended while this page was open: nothing is kept until they sign in again. */
  private ended = false;
  private info: NotebookInfo | null = null;
  private key: CryptoKey | null = null;
  /** The notebook changed under this page (erased elsewhere): its notes are read again once it is open. */
  private reload = false;
  private opening: Promise<CryptoKey | null> | null = null;
  /** The start: who reads, and this device's key if it keeps one. A Note reached meanwhile waits for it. */
  private starting: Promise<void> | null = null;
  /** The member closed the notebook's question: typing asks again only once they reach for a Note again. */
  private declined = false;
  /** A new recovery key was offered on this page already. */
  private renewOffered = false;
  /** The sign-in changes seen (authChanged), taken in turn. */
  private changing: Promise<void> = Promise.resolve();
  private readonly cleanups: Array<() => void> = [];
  private readonly host: NotebookHost;

  constructor(host: NotebookHost) {
    this.host = host;
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
        blocked: null,
        browserText: null,
        saving: false,
        again: false,
        retryMs: 2000,
      };
      this.controls.set(control.id, control);
      // Opening a Note asks for the notebook; going into its box asks only if the member has not closed the question.
      this.listen(details, "toggle", () => details.open && void this.reached(control));
      this.listen(control.box, "focus", () => void this.reached(control, false));
      this.listen(control.box, "input", () => this.edited(control));
    }
    this.listen(window, "online", () => this.resendAll());
    this.listen(window, "beforeunload", (event) => {
      if ([...this.controls.values()].some((c) => this.unsaved(c))) event.preventDefault();
    });
    // Signed in or out in another tab (or while this page sat in the back-forward cache).
    this.listen(window, "storage", (event) => ((event as StorageEvent).key === AUTH_KEY || (event as StorageEvent).key === null) && void this.authChanged());
    this.listen(window, "pageshow", (event) => (event as PageTransitionEvent).persisted && void this.authChanged());
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
    if (await this.host.signedIn()) await this.asMember();
    else this.asReader();
  }

  /** Nobody signed in: notes kept in this browser only, and nothing of a member's left on it. */
  private asReader(): void {
    void forgetThisDevice();
    const local = readLocalNotes()[this.chapter.slug] ?? {};
    for (const control of this.controls.values()) {
      this.say(control, LOCAL_ONLY);
      const kept = local[String(control.id)]?.note.text ?? "";
      control.saved = kept;
      if (kept && !control.box.value) control.box.value = kept;
      else if (control.box.value !== kept) this.edited(control);
      this.mark(control);
    }
  }

  /** A member reads: their notebook's notes on this chapter, the device's key if it keeps one, and what this browser kept before sign-in. */
  private async asMember(): Promise<void> {
    this.member = true;
    this.ended = false;
    // What the reader did before this woke: a Note opened (its toggle came before the island), typing in it.
    const reached = [...this.controls.values()].find((control) => control.details.open);
    // This browser's notes from before sign-in: on screen (never an empty box), until the notebook holds them.
    const local = readLocalNotes()[this.chapter.slug] ?? {};
    for (const control of this.controls.values()) {
      const kept = local[String(control.id)]?.note.text;
      if (kept && !control.box.value) control.box.value = kept;
      control.browserText = kept && control.box.value === kept ? kept : null;
      control.saved = "";
      this.mark(control);
    }
    this.host.browserNotes(anonymousNotes().length, false);
    try {
      await this.loadChapter();
      if (this.key) await this.unlocked();
      else for (const control of this.controls.values()) if (this.unsaved(control)) this.hold(control);
      if (reached) void this.reached(reached);
    } catch (error) {
      if (sessionEnded(error)) return this.end();
      for (const control of this.controls.values()) if (control.details.open) this.say(control, RETRY);
    }
  }

  /** The notebook and its notes on this chapter (one call), and this device's key for it. */
  private async loadChapter(): Promise<void> {
    const { notebook, notes } = await notebookApi.chapter(this.chapter.slug);
    this.info = notebook;
    this.reload = false;
    this.key = await deviceKey(notebook);
    for (const stored of notes) {
      const control = this.controls.get(stored.subsectionId);
      if (!control) continue;
      control.version = stored.version;
      control.sealed = stored.ciphertext === null ? null : stored;
      if (stored.ciphertext === null && notebook) rememberVersion(notebook.id, stored.subsectionId, stored.version);
      this.mark(control);
    }
  }

  /**
   * Another tab signed in or out (the stored state changed), or this page came back from the
   * back-forward cache. One change at a time: a second one waits for the first to be taken.
   */
  private authChanged(): Promise<void> {
    this.changing = this.changing.then(async () => {
      await this.starting;
      const signedIn = this.host.storedSignedIn();
      if (signedIn && (!this.member || this.ended)) await this.asMember();
      else if (!signedIn && this.member && !this.ended) this.end();
    }).catch(() => undefined);
    return this.changing;
  }

  /** The session ended: what this device kept for the member goes; what is on the page stays there, said unkept. */
  private end(): void {
    this.ended = true;
    this.key = null;
    this.info = null;
    void forgetThisDevice();
    this.host.browserNotes(0, false);
    for (const control of this.controls.values()) {
      clearTimeout(control.timer);
      if (this.unsaved(control)) this.say(control, ENDED);
    }
  }

  /** The reader opened a Note or went into its box: a member's notebook must be open (started, or unlocked here). */
  private async reached(control: NoteControl, asked = true): Promise<void> {
    // Not before the start has looked for this device's key: a Note opened while it looks must not ask for the passphrase.
    await this.starting;
    if (!this.member || this.ended || control.blocked) return;
    if (this.key) {
      if (asked) await this.offerNewRecoveryKey();
      return;
    }
    if (!asked && this.declined) return;
    const key = await this.openNotebook();
    this.declined = !key;
  }

  /** The notebook key, asking the member for what it needs (one question at a time); null when they close it. */
  openNotebook(): Promise<CryptoKey | null> {
    if (this.key) return Promise.resolve(this.key);
    this.opening ??= (async () => {
      try {
        this.info ??= await notebookApi.get();
        for (;;) {
          const answer = this.info ? await this.host.ask({ kind: "unlock", info: this.info }) : await this.host.ask({ kind: "setup" });
          if (answer.kind === "started") {
            this.info = answer.info;
            this.key = answer.key;
            await this.keepRecoveryKey(answer.recoveryKey);
          } else if (answer.kind === "opened") {
            this.info = answer.info;
            this.key = answer.key;
          } else if (answer.kind === "restart" && this.info) {
            const confirmed = await this.host.ask({ kind: "restart", info: this.info });
            if (confirmed.kind !== "confirmed") continue;
            await notebookApi.erase();
            this.forgetNotebook();
            continue;
          } else {
            return null;
          }
          if (this.reload) {
            const key = this.key;
            await this.loadChapter();
            this.key ??= key;
          }
          await this.unlocked();
          await this.offerNewRecoveryKey();
          return this.key;
        }
      } catch (error) {
        if (sessionEnded(error)) this.end();
        throw error;
      } finally {
        this.opening = null;
      }
    })();
    return this.opening;
  }

  /** Shows a new recovery key once and records that it was kept (a tab closed first leaves it unkept: offered again next time). */
  private async keepRecoveryKey(recoveryKey: string): Promise<void> {
    // (A page that has just shown a recovery key never offers another: not even while the server is told.)
    this.renewOffered = true;
    await this.host.ask({ kind: "recovery", recoveryKey });
    try {
      this.info = await notebookApi.keepRecovery(this.info!.version);
    } catch {
      // (Recorded next time: the notebook will offer a new key.)
    }
  }

  /** The recovery key was never shown kept (the tab closed first): offered once a page, when the member reaches for a Note. */
  private async offerNewRecoveryKey(): Promise<void> {
    if (!this.info || this.info.recoveryKept || this.renewOffered) return;
    this.renewOffered = true;
    const answer = await this.host.ask({ kind: "renew", info: this.info });
    if (answer.kind !== "renewed") return;
    this.info = answer.info;
    this.key = answer.key;
    await this.keepRecoveryKey(answer.recoveryKey);
  }

  /** The notebook is no longer this page's (erased here or on another device): what was read of it is dropped, the words on the page stay. */
  private forgetNotebook(): void {
    void deviceKey(null);
    this.info = null;
    this.key = null;
    for (const control of this.controls.values()) {
      clearTimeout(control.timer);
      Object.assign(control, { version: 0, sealed: null, saved: "", blocked: null });
      control.box.readOnly = false;
      this.mark(control);
    }
  }

  /** The key is here: the notes read before are opened, typed text merged and sent, and this browser's notes from before sign-in moved in. */
  private async unlocked(): Promise<void> {
    await this.openSealed();
    const handled = new Set([...this.controls.values()].filter((c) => c.browserText !== null).map((c) => c.id));
    try {
      const left = await adoptBrowserNotes(this.key!, this.info!, handled);
      this.host.browserNotes(left, left > 0);
    } catch (error) {
      if (sessionEnded(error)) this.end();
      else this.host.browserNotes(anonymousNotes().length, false);
    }
  }

  /** Opens the notes read before the key was here, and the saves this browser holds unsent; merges and sends what is newer. */
  private async openSealed(): Promise<void> {
    const info = this.info!;
    const key = this.key!;
    const pending = pendingSaves(info.id, this.chapter.slug);
    for (const control of this.controls.values()) {
      if (control.sealed) {
        const stored = control.sealed;
        control.sealed = null;
        const note = await readNote(key, info.id, stored);
        if (typeof note === "string") {
          this.block(control, note);
          continue;
        }
        control.saved = note.text;
        const typed = control.box.value;
        if (!typed) control.box.value = note.text;
        else if (typed !== note.text) {
          // This browser's note from before sign-in is added to the notebook's; words typed here meanwhile are the member's to choose.
          if (control.browserText !== null && typed === control.browserText) control.box.value = keptTogether(note.text, typed, FROM_THIS_BROWSER);
          else await this.resolve(control, typed, note.text);
        }
      }
      const waiting = pending[String(control.id)];
      if (waiting && !control.blocked && (control.box.value === control.saved || !control.box.value)) {
        try {
          const mine = (await openNote(key, { notebook: info.id, subsectionId: control.id, version: waiting.version + 1 }, waiting.sealed)).text;
          // Sealed over a version another device has since replaced: both are shown to choose from.
          if (waiting.version !== control.version && mine !== control.saved && control.saved) await this.resolve(control, mine, control.saved);
          else if (mine !== control.saved) control.box.value = mine;
        } catch {
          writePendingSave(info.id, this.chapter.slug, control.id, null);
        }
      }
      this.mark(control);
      if (control.browserText !== null && control.box.value === control.saved) this.adopted(control);
      if (this.unsaved(control)) this.edited(control, true);
      else if (control.version > 0) this.say(control, SAVED);
      else this.say(control, "");
    }
  }

  /** A stored note that cannot be shown: said so, read-only, and written over only if the member asks. */
  private block(control: NoteControl, why: Unopened): void {
    control.blocked = why;
    control.box.readOnly = true;
    clearTimeout(control.timer);
    control.details.dataset.hasNote = "";
    this.say(control, UNOPENED_TEXT[why]);
    if (why === "unreadable") {
      this.act(control, WRITE_OVER, () => {
        control.blocked = null;
        control.box.readOnly = false;
        if (!this.unsaved(control)) control.box.value = "";
        this.say(control, "");
        control.box.focus();
        if (control.box.value) this.edited(control, true);
      });
    }
  }

  /** This browser's note from before sign-in is in the notebook now: forgotten here. */
  private adopted(control: NoteControl): void {
    writeLocalNote(this.chapter.slug, control.id, null);
    control.browserText = null;
    if (anonymousNotes().length === 0) this.host.browserNotes(0, false);
  }

  private plain(control: NoteControl, text: string): NotePlain {
    return { text, title: control.title, chapterSlug: this.chapter.slug, chapterTitle: this.chapter.title, sectionSlug: control.sectionSlug, level: this.chapter.level };
  }

  private unsaved(control: NoteControl): boolean {
    return control.saving || control.box.value !== control.saved;
  }

  private mark(control: NoteControl): void {
    if ((control.version > 0 && control.saved.trim()) || control.sealed || control.blocked || control.box.value.trim()) control.details.dataset.hasNote = "";
    else delete control.details.dataset.hasNote;
  }

  /** Sets a Note's status line; its action goes unless `act` shows one after. */
  private say(control: NoteControl, text: string): void {
    control.status.textContent = text;
    if (control.action) control.action.hidden = true;
  }

  /** Shows the Note's one action (a quiet button under its status line). */
  private act(control: NoteControl, label: string, run: () => void): void {
    if (!control.action) {
      control.action = Object.assign(document.createElement("button"), { type: "button", className: "button-quiet note-action" });
      control.status.after(control.action);
    }
    control.action.textContent = label;
    control.action.hidden = false;
    control.action.onclick = run;
  }

  /** Words a member typed that the notebook cannot take yet (it is not open on this device): said so, with the way to open it. */
  private hold(control: NoteControl): void {
    this.say(control, control.browserText !== null && control.box.value === control.browserText ? BROWSER_HELD : HELD);
    this.act(control, this.info ? "Open my notebook" : "Start my notebook", () => {
      this.declined = false;
      void this.reached(control);
    });
  }

  /** The reader typed (or text is waiting to be sent): sent after a pause; a member's kept meanwhile only sealed. */
  private edited(control: NoteControl, now = false): void {
    const text = control.box.value;
    this.mark(control);
    if (this.ended) return this.say(control, ENDED);
    if (!this.member) {
      writeLocalNote(this.chapter.slug, control.id, text.trim() ? { note: this.plain(control, text), at: new Date().toISOString() } : null);
      control.saved = text;
      return;
    }
    if (control.blocked) return;
    if (!this.key || !this.info) {
      // On this page only, in memory, until the notebook is open here (issue 42: 2).
      this.hold(control);
      if (text !== control.saved) void this.reached(control, false);
      return;
    }
    this.say(control, text === control.saved ? (control.version > 0 ? SAVED : "") : SAVING);
    // Sealed and kept in this browser before it is sent: a crash or a lost connection loses nothing.
    const version = control.version;
    const info = this.info;
    void sealNote(this.key, { notebook: info.id, subsectionId: control.id, version: version + 1 }, this.plain(control, text)).then((sealed) => {
      if (control.box.value === text && text !== control.saved && this.info === info) writePendingSave(info.id, this.chapter.slug, control.id, { version, sealed, at: new Date().toISOString() });
    });
    clearTimeout(control.timer);
    control.timer = setTimeout(() => void this.send(control), now ? 0 : PAUSE_MS);
  }

  private resendAll(): void {
    for (const control of this.controls.values()) if (this.member && this.key && !control.blocked && control.box.value !== control.saved) this.edited(control, true);
  }

  private async send(control: NoteControl): Promise<void> {
    if (control.saving) {
      control.again = true;
      return;
    }
    const info = this.info;
    const key = this.key;
    if (!info || !key || control.blocked || this.ended) return;
    const text = control.box.value;
    if (text === control.saved || (!text.trim() && !control.saved.trim())) {
      control.saved = text;
      this.say(control, control.version > 0 ? SAVED : "");
      writePendingSave(info.id, this.chapter.slug, control.id, null);
      return;
    }
    control.saving = true;
    this.say(control, SAVING);
    try {
      if (!text.trim()) {
        control.version = (await notebookApi.remove(info.id, control.id, control.version)).version;
        rememberVersion(info.id, control.id, control.version);
      } else {
        control.version = (await saveNote(key, info.id, control.id, control.version, this.plain(control, text))).version;
      }
      control.saved = text;
      control.retryMs = 2000;
      if (control.box.value === text) writePendingSave(info.id, this.chapter.slug, control.id, null);
      if (control.browserText !== null) this.adopted(control);
      this.say(control, SAVED);
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
    if (sessionEnded(error)) return this.end();
    if (error instanceof ApiError && error.code === "notebook_changed") {
      this.forgetNotebook();
      this.reload = true;
      for (const each of this.controls.values()) if (each.box.value.trim()) this.hold(each);
      this.say(control, NOTEBOOK_GONE);
      this.act(control, "Open my notebook", () => void this.reached(control));
      return;
    }
    if (error instanceof ApiError && error.code === "note_changed") {
      const current = error.details.current as StoredNote | null;
      control.version = current?.version ?? 0;
      if (!current || current.ciphertext === null) {
        // Erased on another device meanwhile: these words stand, over its version.
        control.saved = "";
        if (current) rememberVersion(this.info!.id, control.id, current.version);
        return this.edited(control, true);
      }
      const theirs = await readNote(this.key!, this.info!.id, current);
      if (typeof theirs === "string") return this.block(control, theirs);
      control.saved = theirs.text;
      return this.resolve(control, text, control.saved);
    }
    if (error instanceof ApiError && error.status < 500 && ![401, 408, 429].includes(error.status)) {
      // Refused for good (the passage is no longer open to the member, say): kept on the page, and said.
      this.say(control, `Not saved: ${error.text}`);
      return;
    }
    this.say(control, RETRY);
    clearTimeout(control.timer);
    control.timer = setTimeout(() => void this.send(control), control.retryMs);
    control.retryMs = Math.min(control.retryMs * 2, 60_000);
  }

  /** Two versions of a note: the member keeps one, the other or both; nothing is dropped meanwhile. */
  private async resolve(control: NoteControl, mine: string, theirs: string): Promise<void> {
    control.details.open = true;
    const answer = await this.host.ask({ kind: "conflict", mine, theirs });
    const choice = answer.kind === "chosen" ? answer.choice : "both";
    control.box.value = choice === "mine" ? mine : choice === "theirs" ? theirs : bothTexts(mine, theirs);
    this.mark(control);
    this.edited(control, true);
  }
}
