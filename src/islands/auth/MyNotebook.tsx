/**
 * "My notebook" on /profile (issue 32): every note, decrypted in this browser, in book order
 * (level, chapter, subsection number and title, last edited), each linking back to its passage;
 * a search over them (here, after decryption); the notebook as Markdown or JSON; and erasing it.
 * A note whose passage is no longer open to the member shows as such, under its last known title.
 */
import { chapterNumber, twoDigits } from "../../lib/chapter-number.ts";
import { useEffect, useMemo, useState } from "react";
import { errorMessage } from "../../lib/api-client.ts";
import { deviceKey, notebookApi, openAll, type NotebookInfo } from "../../lib/notebook/client.ts";
import { downloadFile, NO_LONGER_OPEN, notebookJson, notebookMarkdown, type OpenedNote } from "../../lib/notebook/export.ts";
import { field, ModalDialog, primary, quiet, RestartForm, UnlockForm } from "../notebook/forms.tsx";

const dateOf = (iso: string) => new Intl.DateTimeFormat(undefined, { dateStyle: "medium" }).format(new Date(iso));

type State =
  | { kind: "loading" }
  | { kind: "none" }
  | { kind: "locked"; info: NotebookInfo }
  | { kind: "open"; info: NotebookInfo; notes: OpenedNote[]; unreadable: number }
  | { kind: "failed"; message: string };

export default function MyNotebook({ className }: { className: string }) {
  const [state, setState] = useState<State>({ kind: "loading" });
  const [dialog, setDialog] = useState<"unlock" | "erase" | null>(null);
  const [query, setQuery] = useState("");

  async function load(info?: NotebookInfo | null, key?: CryptoKey | null) {
    try {
      const notebook = info === undefined ? await notebookApi.get() : info;
      if (!notebook) return setState({ kind: "none" });
      const opened = key ?? (await deviceKey(notebook));
      if (!opened) return setState({ kind: "locked", info: notebook });
      const { opened: notes, unreadable } = await openAll(opened, await notebookApi.allNotes());
      setState({ kind: "open", info: notebook, notes, unreadable });
    } catch (error) {
      setState({ kind: "failed", message: errorMessage(error) });
    }
  }
  useEffect(() => {
    void load();
  }, []);

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

  return (
    <section className={className} aria-labelledby="notebook-title" aria-busy={state.kind === "loading"}>
      {heading}
      {state.kind === "loading" && <p className="mt-3 text-sm text-[var(--color-muted)]">Loading...</p>}
      {state.kind === "failed" && (
        <p role="alert" className="mt-3 text-sm">
          Your notebook could not be loaded: {state.message}{" "}
          <button type="button" className="underline underline-offset-4" onClick={() => void load()}>
            Try again
          </button>
        </p>
      )}
      {state.kind === "none" && (
        <p className="mt-3 text-sm text-[var(--color-muted)]">
          You have no notebook yet. Open any chapter and choose Note under a passage to write beside it: your notes are encrypted in your
          browser with a passphrase only you know.
        </p>
      )}
      {state.kind === "locked" && (
        <div className="mt-3 space-y-3">
          <p className="text-sm text-[var(--color-muted)]">
            Your notebook holds {state.info.notes} {state.info.notes === 1 ? "note" : "notes"}, encrypted. Open it with your passphrase to read
            them on this device.
          </p>
          <button type="button" className={primary} onClick={() => setDialog("unlock")}>
            Open my notebook
          </button>
        </div>
      )}
      {state.kind === "open" && (
        <div className="mt-3 space-y-4">
          <p className="text-sm text-[var(--color-muted)]">
            {state.notes.length} {state.notes.length === 1 ? "note" : "notes"}, in the order of the book.
            {state.unreadable > 0 && ` ${state.unreadable} could not be opened with this notebook's key.`}
          </p>
          <div className="flex flex-wrap items-end gap-3">
            <label className="block min-w-56 flex-1 text-sm font-medium">
              Search my notes
              <input className={field} type="search" value={query} onChange={(e) => setQuery(e.target.value)} />
            </label>
            <button type="button" className={quiet} onClick={() => downloadFile("my-notebook.md", notebookMarkdown(state.notes, new Date()), "text/markdown")}>
              Download as Markdown
            </button>
            <button type="button" className={quiet} onClick={() => downloadFile("my-notebook.json", notebookJson(state.notes, new Date()), "application/json")}>
              Download as JSON
            </button>
          </div>
          {shown.length === 0 ? (
            <p className="text-sm text-[var(--color-muted)]">{state.notes.length === 0 ? "No notes yet." : "No note holds those words."}</p>
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
                  <p className="mt-2 text-sm whitespace-pre-wrap">{note.text}</p>
                  <p className="mt-2 text-xs text-[var(--color-muted)]">Last edited {dateOf(updatedAt)}</p>
                </li>
              ))}
            </ol>
          )}
          <button type="button" className={quiet} onClick={() => setDialog("erase")}>
            Erase my notebook
          </button>
        </div>
      )}
      {dialog === "unlock" && state.kind === "locked" && (
        <ModalDialog title="Open your notebook" onClose={() => setDialog(null)}>
          <UnlockForm
            info={state.info}
            onOpened={({ info, key }) => {
              setDialog(null);
              void load(info, key);
            }}
            onRestart={() => setDialog("erase")}
          />
        </ModalDialog>
      )}
      {dialog === "erase" && (state.kind === "open" || state.kind === "locked") && (
        <ModalDialog title="Erase your notebook?" role="alertdialog" onClose={() => setDialog(null)}>
          <RestartForm
            erasing
            notes={state.kind === "open" ? state.notes.length : state.info.notes}
            onConfirm={async () => {
              await notebookApi.erase();
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
