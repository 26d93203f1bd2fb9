/**
 * "My notebook" on /profile (issues 32 and 42): every note, decrypted in this browser, in book
 * order (level, chapter, subsection number and title, last edited), each linking back to its
 * passage; a search over them (here, after decryption); the notebook as Markdown or JSON; and
 * erasing it. A note whose passage is no longer open to the member shows as such, under its last
 * known title; one that cannot be opened on this device, or is older than one it has seen, is said
 * so. The notebook can be started or opened here too, and once it is open the notes this browser
 * kept before sign-in move into it; a recovery key never shown kept is offered anew.
 */
import { chapterNumber, twoDigits } from "../../lib/chapter-number.ts";
import { useEffect, useMemo, useState } from "react";
import { errorMessage } from "../../lib/api-client.ts";
import {
  adoptBrowserNotes,
  anonymousNotes,
  deviceKey,
  notebookApi,
  openAll,
  UNOPENED_TEXT,
  type NotebookInfo,
  type PlacedNote,
  type Unopened,
} from "../../lib/notebook/client.ts";
import { downloadFile, NO_LONGER_OPEN, notebookJson, notebookMarkdown, type OpenedNote } from "../../lib/notebook/export.ts";
import { myTakenMessages } from "../../lib/messages/member-line.ts";
import { destructive, field, ModalDialog, quiet, RecoveryKey, RenewForm, RestartForm, SetupForm, UnlockForm } from "../notebook/forms.tsx";
import { useSettledOnce } from "./shown-whole.ts";

const dateOf = (iso: string) => new Intl.DateTimeFormat(undefined, { dateStyle: "medium" }).format(new Date(iso));

type State =
  | { kind: "loading" }
  | { kind: "none" }
  | { kind: "locked"; info: NotebookInfo }
  | { kind: "open"; info: NotebookInfo; notes: OpenedNote[]; unopened: Array<{ stored: PlacedNote; why: Unopened }>; left: number; html: (text: string) => string }
  | { kind: "failed"; message: string };

type Dialog = { kind: "start" } | { kind: "unlock" } | { kind: "erase" } | { kind: "renew" } | { kind: "recovery"; info: NotebookInfo; key: CryptoKey; recoveryKey: string };

const plural = (n: number, one: string) => `${n} ${n === 1 ? one : `${one}s`}`;

/**
 * A note's light markup as HTML (**bold**, lists, quotes, paragraphs), as chapters render it:
 * the renderer is loaded only for a notebook that has notes to show.
 */
async function noteHtml(): Promise<(text: string) => string> {
  const { renderMarkup } = await import("../../lib/markup.ts");
  return (text) => renderMarkup(text, { transformHref: "/" });
}

export default function MyNotebook({ className, onSettled }: { className: string; onSettled?: () => void }) {
  const [state, setState] = useState<State>({ kind: "loading" });
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [query, setQuery] = useState("");
  // Notes this browser kept before sign-in, waiting for the notebook to open here.
  const [waiting, setWaiting] = useState(() => anonymousNotes().length);

  /** Shows the notebook: opened with `key` (or this device's), after moving in what this browser kept before sign-in. */
  async function load(info?: NotebookInfo | null, key?: CryptoKey | null) {
    try {
      const notebook = info === undefined ? await notebookApi.get() : info;
      const opened = key ?? (await deviceKey(notebook));
      if (!notebook) return setState({ kind: "none" });
      if (!opened) return setState({ kind: "locked", info: notebook });
      const left = await adoptBrowserNotes(opened, notebook);
      setWaiting(anonymousNotes().length);
      const { opened: notes, unopened } = await openAll(opened, notebook.id, await notebookApi.allNotes());
      setState({ kind: "open", info: notebook, notes, unopened, left, html: notes.length > 0 ? await noteHtml() : String });
    } catch (error) {
      setState({ kind: "failed", message: errorMessage(error) });
    }
  }
  useEffect(() => {
    void load();
  }, []);
  useSettledOnce(state.kind !== "loading", onSettled);

  /** The notebook as Markdown, with the direct line's messages (issue 43) when this device can open them. */
  async function downloadMarkdown(info: NotebookInfo, notes: OpenedNote[]) {
    const key = await deviceKey(info);
    const messages = key ? await myTakenMessages(key, info.id).catch(() => []) : [];
    downloadFile("my-notebook.md", notebookMarkdown(notes, new Date(), messages), "text/markdown");
  }

  /** A recovery key was shown and the member showed they kept it: recorded (or offered again next time), and the notebook shown. */
  async function kept(info: NotebookInfo, key: CryptoKey) {
    setDialog(null);
    const recorded = await notebookApi.keepRecovery(info.version).catch(() => info);
    await load(recorded, key);
  }

  const shown = useMemo(() => {
    if (state.kind !== "open") return [];
    const words = query.trim().toLowerCase();
    if (!words) return state.notes;
    return state.notes.filter(({ note, place }) =>
      [note.text, note.title, note.chapterTitle, place?.sectionTitle ?? "", place?.chapterTitle ?? ""].some((text) => text.toLowerCase().includes(words)),
    );
  }, [state, query]);

  const heading = (
    <h2 id="notebook-title" className="font-serif text-xl">
      My notebook
    </h2>
  );
  const muted = "text-sm text-[var(--color-muted)]";

  return (
    <section className={className} aria-labelledby="notebook-title" aria-busy={state.kind === "loading"}>
      {heading}
      {state.kind === "loading" && <p className={`mt-3 ${muted}`}>Loading...</p>}
      {state.kind === "failed" && (
        <p role="alert" className="mt-3 text-sm">
          Your notebook could not be loaded: {state.message}{" "}
          <button type="button" className="underline underline-offset-4" onClick={() => void load()}>
            Try again
          </button>
        </p>
      )}
      {waiting > 0 && state.kind !== "open" && state.kind !== "loading" && (
        <p className="mt-3 text-sm" data-testid="browser-notes">
          You wrote {plural(waiting, "note")} in this browser before signing in. {waiting === 1 ? "It moves" : "They move"} into your notebook as
          soon as it is open here.
        </p>
      )}
      {state.kind === "none" && (
        <div className="mt-3 space-y-3">
          <p className={muted}>
            You have no notebook yet. Start it here, or choose Note under any passage of a chapter to write beside it: your notes are encrypted in
            your browser with a passphrase only you know.
          </p>
          {/* (Quiet: the page's one call to action is reading.) */}
          <button type="button" className={quiet} onClick={() => setDialog({ kind: "start" })}>
            Start my notebook
          </button>
        </div>
      )}
      {state.kind === "locked" && (
        <div className="mt-3 space-y-3">
          <p className={muted}>
            Your notebook holds {plural(state.info.notes, "note")}, encrypted. Open it with your passphrase to read them on this device.
          </p>
          <button type="button" className={quiet} onClick={() => setDialog({ kind: "unlock" })}>
            Open my notebook
          </button>
        </div>
      )}
      {state.kind === "open" && (
        <div className="mt-3 space-y-4">
          {!state.info.recoveryKept && (
            <div role="note" className="rounded-md border border-[var(--color-accent)] p-4 text-sm" data-testid="recovery-not-kept">
              <p>
                Your recovery key was never confirmed as kept. Without it, a forgotten passphrase means nobody can open your notebook. Make a new
                one: the old one stops working.
              </p>
              <button type="button" className={`${quiet} mt-3`} onClick={() => setDialog({ kind: "renew" })}>
                Make a new recovery key
              </button>
            </div>
          )}
          <p className={muted}>
            {plural(state.notes.length, "note")}, in the order of the book.
            {state.left > 0 && ` ${plural(state.left, "note")} written in this browser before signing in could not be moved in (their passage is not open to you): they stay in this browser.`}
          </p>
          <div className="flex flex-wrap items-end gap-3">
            <label className="block min-w-56 flex-1 text-sm font-medium">
              Search my notes
              <input className={field} type="search" value={query} onChange={(e) => setQuery(e.target.value)} />
            </label>
            <button type="button" className={quiet} onClick={() => void downloadMarkdown(state.info, state.notes)}>
              Download as Markdown
            </button>
            <button type="button" className={quiet} onClick={() => downloadFile("my-notebook.json", notebookJson(state.notes, new Date()), "application/json")}>
              Download as JSON
            </button>
          </div>
          {shown.length === 0 ? (
            <p className={muted}>{state.notes.length === 0 ? "No notes yet." : "No note holds those words."}</p>
          ) : (
            <ol className="space-y-4" aria-label="My notes">
              {shown.map(({ subsectionId, note, place, updatedAt }) => (
                <li key={subsectionId} className="rounded-md border border-[var(--color-line)] p-4">
                  <p className="text-xs tracking-wide text-[var(--color-muted)] uppercase">
                    {place ? `${place.level} · ${chapterNumber(place.chapterNumber)} ${place.chapterTitle}` : `${note.level} · ${note.chapterTitle}`}
                  </p>
                  <h3 className="mt-1 font-medium">
                    {place ? (
                      <a href={`/${place.chapterSlug}#${place.sectionSlug}`} className="underline underline-offset-4">
                        {twoDigits(place.sectionNumber)} {place.sectionTitle}
                      </a>
                    ) : (
                      <>
                        {note.title} <span className="text-sm font-normal text-[var(--color-muted)]">({NO_LONGER_OPEN})</span>
                      </>
                    )}
                  </h3>
                  {/* The note's light markup, rendered and escaped as a chapter's is (issue 44: 7). */}
                  <div className="chapter-content note-markup mt-2 text-sm" dangerouslySetInnerHTML={{ __html: state.html(note.text) }} />
                  <p className="mt-2 text-xs text-[var(--color-muted)]">Last edited {dateOf(updatedAt)}</p>
                </li>
              ))}
            </ol>
          )}
          {state.unopened.length > 0 && (
            <ul className="space-y-3" aria-label="Notes that cannot be shown">
              {state.unopened.map(({ stored, why }) => (
                <li key={stored.subsectionId} className="rounded-md border border-dashed border-[var(--color-line)] p-4 text-sm">
                  <p className="font-medium">
                    {stored.place ? `${chapterNumber(stored.place.chapterNumber)} ${stored.place.chapterTitle} · ${twoDigits(stored.place.sectionNumber)} ${stored.place.sectionTitle}` : `A note ${NO_LONGER_OPEN}`}
                  </p>
                  <p className={`mt-1 ${muted}`}>{UNOPENED_TEXT[why]}</p>
                </li>
              ))}
            </ul>
          )}
          <button type="button" className={destructive} onClick={() => setDialog({ kind: "erase" })}>
            Erase my notebook
          </button>
        </div>
      )}
      {dialog?.kind === "start" && (
        <ModalDialog title="Start your notebook" onClose={() => setDialog(null)}>
          <SetupForm onStarted={(started) => setDialog({ kind: "recovery", ...started })} />
        </ModalDialog>
      )}
      {dialog?.kind === "recovery" && (
        <ModalDialog title="Your recovery key">
          <RecoveryKey recoveryKey={dialog.recoveryKey} onKept={() => void kept(dialog.info, dialog.key)} />
        </ModalDialog>
      )}
      {dialog?.kind === "unlock" && state.kind === "locked" && (
        <ModalDialog title="Open your notebook" onClose={() => setDialog(null)}>
          <UnlockForm
            info={state.info}
            onOpened={({ info, key }) => {
              setDialog(null);
              void load(info, key);
            }}
            onRestart={() => setDialog({ kind: "erase" })}
          />
        </ModalDialog>
      )}
      {dialog?.kind === "renew" && state.kind === "open" && (
        <ModalDialog title="Keep a recovery key" onClose={() => setDialog(null)}>
          <RenewForm info={state.info} onRenewed={(renewed) => setDialog({ kind: "recovery", ...renewed })} onLater={() => setDialog(null)} />
        </ModalDialog>
      )}
      {dialog?.kind === "erase" && (state.kind === "open" || state.kind === "locked") && (
        <ModalDialog title="Erase your notebook?" role="alertdialog" onClose={() => setDialog(null)}>
          <RestartForm
            erasing
            notes={state.kind === "open" ? state.notes.length + state.unopened.length : state.info.notes}
            onConfirm={async () => {
              await notebookApi.erase();
              // (This device's key of it goes too.)
              await deviceKey(null);
              setDialog(null);
              setState({ kind: "none" });
            }}
            onCancel={() => setDialog(null)}
          />
        </ModalDialog>
      )}
    </section>
  );
}
