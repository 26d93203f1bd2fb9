/**
 * "Download my notebook" on /resume (issue 32), for a member whose access has ended (or anyone
 * signed out): the access code and password fetch the notebook as the server keeps it, sealed
 * (limited as sign-in is), and the passphrase or the recovery key opens it here, in the browser,
 * into the same Markdown file /profile gives. Nothing but the code and password is sent.
 */
import { useState, type SubmitEvent } from "react";
import { errorMessage } from "../../lib/api-client.ts";
import { unlockWithPassphrase, WrongSecretError } from "../../lib/notebook/crypto.ts";
import { notebookApi, openAll, openWithRecoveryKey } from "../../lib/notebook/client.ts";
import { downloadFile, notebookMarkdown } from "../../lib/notebook/export.ts";
import { takenMessages } from "../../lib/messages/member-line.ts";
import { field, primary } from "../notebook/forms.tsx";

/** `given`: the code and password a sign-in of an ended code just used, which open the form filled in (issue 44: 6). */
export default function NotebookDownload({ given }: { given?: { login: string; password: string } }) {
  const [login, setLogin] = useState(given?.login ?? "");
  const [password, setPassword] = useState(given?.password ?? "");
  const [sealed, setSealed] = useState<Awaited<ReturnType<typeof notebookApi.export>> | null>(null);
  const [secret, setSecret] = useState("");
  const [recovering, setRecovering] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  // The form is in the page only while open: the sign-in card's fields stay the page's only ones otherwise.
  const [open, setOpen] = useState(given !== undefined);

  async function fetchNotebook(event: SubmitEvent) {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      setSealed(await notebookApi.export(login.trim(), password));
    } catch (error) {
      setProblem(errorMessage(error));
    }
    setBusy(false);
  }

  async function openAndDownload(event: SubmitEvent) {
    event.preventDefault();
    if (!sealed) return;
    setBusy(true);
    setProblem(null);
    try {
      const key = recovering ? await openWithRecoveryKey(sealed.notebook, secret) : await unlockWithPassphrase(sealed.notebook, secret);
      const { opened, unopened } = await openAll(key, sealed.notebook.id, sealed.notes, false);
      const messages = await takenMessages(key, sealed.notebook.id, sealed.conversation).catch(() => []);
      downloadFile("my-notebook.md", notebookMarkdown(opened, new Date(), messages), "text/markdown");
      setDone(`Downloaded: ${opened.length} ${opened.length === 1 ? "note" : "notes"}${unopened.length > 0 ? ` (${unopened.length} could not be opened)` : ""}.`);
    } catch (error) {
      setProblem(error instanceof WrongSecretError ? `That ${recovering ? "recovery key" : "passphrase"} does not open this notebook.` : errorMessage(error));
    }
    setBusy(false);
  }

  return (
    <details
      id="notebook-download"
      className="mt-6 rounded-lg border border-[var(--color-line)] bg-[var(--color-panel)] p-6"
      open={open}
      onToggle={(e) => setOpen(e.currentTarget.open)}
    >
      <summary className="cursor-pointer font-medium">Download my notebook</summary>
      {open && <div className="mt-4 space-y-4">
        <p className="text-sm text-[var(--color-muted)]">
          Has your access ended? Your notebook is kept for 30 days after your access code ends. Get it with your access code and password,
          then open it here with your passphrase or your recovery key: it is decrypted in this browser into a Markdown file.
        </p>
        {!sealed ? (
          <form className="space-y-4" onSubmit={(e) => void fetchNotebook(e)} noValidate>
            <label className="block text-sm font-medium">
              Access code of the notebook
              <input className={field} value={login} onChange={(e) => setLogin(e.target.value)} autoComplete="username" disabled={busy} />
            </label>
            <label className="block text-sm font-medium">
              Password of the notebook&apos;s code
              <input className={field} type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" disabled={busy} />
            </label>
            <button type="submit" className={`${primary} w-full`} disabled={busy || !login.trim() || !password}>
              {busy ? "Getting it..." : "Get my notebook"}
            </button>
          </form>
        ) : (
          <form className="space-y-4" onSubmit={(e) => void openAndDownload(e)} noValidate>
            <p className="text-sm">
              Found: {sealed.notes.length} {sealed.notes.length === 1 ? "note" : "notes"}, encrypted.
            </p>
            <label className="block text-sm font-medium">
              {recovering ? "Recovery key" : "Notebook passphrase"}
              <input className={field} type={recovering ? "text" : "password"} value={secret} onChange={(e) => setSecret(e.target.value)} autoComplete="off" />
            </label>
            <button type="submit" className={`${primary} w-full`} disabled={busy || !secret}>
              {busy ? "Opening..." : "Open it and download"}
            </button>
            <button
              type="button"
              className="text-sm underline underline-offset-4"
              onClick={() => {
                setRecovering(!recovering);
                setSecret("");
                setProblem(null);
              }}
            >
              {recovering ? "Use my passphrase" : "Use my recovery key"}
            </button>
          </form>
        )}
        {problem && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {problem}
          </p>
        )}
        {done && (
          <p role="status" className="text-sm">
            {done}
          </p>
        )}
      </div>}
    </details>
  );
}
