/**
 * /messages (issue 43): a member's direct line to the operator. One conversation: "Your message"
 * and Send, each message with its time and state (Sent, Read), the operator's replies and tasks,
 * and the tier's promise in plain words ("Answers within 24 hours") with when the answer to the
 * oldest waiting message is due. A passage named in the address (?passage=ID, from "Ask about this
 * passage") goes with the message; from a note (?note=ID) the note's text is offered, shown as it
 * will be sent, the member's choice. Opened with their notebook's key, sealed in this browser
 * (src/lib/messages/member-line.ts). Not signed in: off to /resume.
 */
import { useStore } from "@nanostores/react";
import { useEffect, useRef, useState, type SubmitEvent } from "react";
import { apiRequest, errorMessage } from "../../lib/api-client.ts";
import { chapterNumber, twoDigits } from "../../lib/chapter-number.ts";
import type { PassageRef } from "../../lib/messages/crypto.ts";
import { MESSAGE_MAX_CHARS } from "../../lib/messages/limits.ts";
import { MemberLine, type MemberLineState } from "../../lib/messages/member-line.ts";
import type { OpenedMessage } from "../../lib/messages/line.ts";
import { deviceKey, notebookApi, readNote } from "../../lib/notebook/client.ts";
import { $auth, restoreAuth } from "../../stores/auth.ts";
import { field, ModalDialog, primary, quiet, RecoveryKey, SetupForm, UnlockForm } from "../notebook/forms.tsx";

const card = "rounded-lg border border-[var(--color-line)] bg-[var(--color-panel)] p-6 shadow-sm";
const muted = "text-sm text-[var(--color-muted)]";
const when = (iso: string) => new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));

/** A passage named as the member sees it, linked. */
export function PassageName({ passage }: { passage: PassageRef }) {
  return (
    <a href={`/${passage.chapterSlug}#${passage.sectionSlug}`} className="underline underline-offset-4">
      {passage.level} · {chapterNumber(passage.chapterNumber)} {passage.chapterTitle} · {twoDigits(passage.sectionNumber)} {passage.sectionTitle}
    </a>
  );
}

/** What the line protects against, and what not. */
function Protection() {
  return (
    <p className={muted}>
      Your messages are encrypted in this browser, under a key only you and the operator can derive: the site&apos;s server, its database, its
      backups, logs and webhooks hold only encrypted text. What this cannot protect against: a changed version of this site&apos;s code reading
      what you type before it is encrypted. The operator reads what you send them, as they should.
    </p>
  );
}

export default function MessagesPage() {
  const auth = useStore($auth, { ssr: "initial" });
  const line = useRef(new MemberLine()).current;
  const [state, setState] = useState<MemberLineState | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [notebookDialog, setNotebookDialog] = useState<"setup" | "unlock" | { recoveryKey: string } | null>(null);

  async function run(work: () => Promise<MemberLineState>) {
    try {
      const next = await work();
      setState(next);
      setFailure(null);
      if (next.kind === "open") void line.markRead(next.messages);
    } catch (error) {
      setFailure(errorMessage(error));
    }
  }
  useEffect(() => {
    void restoreAuth().then(() => {
      if (!$auth.get().isAuthenticated) window.location.replace("/resume");
      else void run(() => line.load());
    });
  }, []);

  if (auth.isLoading || !auth.isAuthenticated || (!state && !failure)) return <p className="page-column py-16 text-[var(--color-muted)]">Loading...</p>;
  return (
    <div className="page-column space-y-6 py-16">
      <h1 className="font-serif text-3xl">Messages</h1>
      {failure && (
        <p role="alert" className="text-sm">
          Your messages could not be loaded: {failure}{" "}
          <button type="button" className="underline" onClick={() => void run(() => line.load())}>
            Try again
          </button>
        </p>
      )}
      {state?.kind === "closed" && (
        <section className={card}>
          {state.reason === "tier" ? (
            <p>
              The direct line to the operator comes with the Architect and Mastermind tiers.{" "}
              <a href="/apply" className="underline underline-offset-4">
                See the tiers
              </a>
              .
            </p>
          ) : (
            <p>The direct line opens once the operator has set it up. Until then, write to support.</p>
          )}
        </section>
      )}
      {state?.kind === "notebook" && (
        <section className={`${card} space-y-3`}>
          <p>Your messages are sealed with your notebook&apos;s key, so your notebook&apos;s passphrase opens them too.</p>
          <button type="button" className={primary} onClick={() => setNotebookDialog(state.info ? "unlock" : "setup")}>
            {state.info ? "Open my notebook" : "Start my notebook"}
          </button>
        </section>
      )}
      {state?.kind === "key-changed" && (
        <section role="alert" className={`${card} space-y-3 border-[var(--color-destructive)]`}>
          <h2 className="font-serif text-xl">The operator&apos;s key has changed</h2>
          <p>
            The key your messages are sealed to is not the one you had before. If the operator did not tell you they made a new key, do not send
            anything: ask them first, by another way, what their key&apos;s fingerprint is.
          </p>
          <p className="font-mono text-sm">
            Before: {state.pinned}
            <br />
            Now: {state.current}
          </p>
          <button type="button" className="button-destructive" onClick={() => void run(() => line.acceptOperatorKey())}>
            I compared it: use the new key
          </button>
        </section>
      )}
      {state?.kind === "open" && <Conversation line={line} state={state} onChange={(next) => void run(next)} />}
      <Protection />
      {notebookDialog === "setup" && (
        <ModalDialog title="Start your notebook" onClose={() => setNotebookDialog(null)}>
          <SetupForm onStarted={({ recoveryKey }) => setNotebookDialog({ recoveryKey })} />
        </ModalDialog>
      )}
      {notebookDialog !== null && typeof notebookDialog === "object" && (
        <ModalDialog title="Your recovery key">
          <RecoveryKey
            recoveryKey={notebookDialog.recoveryKey}
            onKept={() => {
              setNotebookDialog(null);
              void notebookApi
                .get()
                .then((info) => info && notebookApi.keepRecovery(info.version))
                .catch(() => undefined)
                .finally(() => void run(() => line.load()));
            }}
          />
        </ModalDialog>
      )}
      {notebookDialog === "unlock" && state?.kind === "notebook" && state.info && (
        <ModalDialog title="Open your notebook" onClose={() => setNotebookDialog(null)}>
          <UnlockForm
            info={state.info}
            onOpened={() => {
              setNotebookDialog(null);
              void run(() => line.load());
            }}
            onRestart={() => setNotebookDialog(null)}
          />
        </ModalDialog>
      )}
    </div>
  );
}

function Conversation({ line, state, onChange }: { line: MemberLine; state: Extract<MemberLineState, { kind: "open" }>; onChange: (work: () => Promise<MemberLineState>) => void }) {
  const params = new URLSearchParams(location.search);
  const [passage, setPassage] = useState<PassageRef | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [withNote, setWithNote] = useState(false);
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    const id = params.get("passage") ?? params.get("note");
    if (!id) return;
    void apiRequest<{ passage: PassageRef }>("GET", `/api/messages/passage/${encodeURIComponent(id)}`).then(({ passage: found }) => {
      setPassage(found);
      box.current?.focus();
    }, () => undefined);
    if (params.get("note")) {
      // The note's own words, opened here with the notebook's key, offered: the member chooses.
      void (async () => {
        const info = await notebookApi.get();
        const key = await deviceKey(info);
        if (!info || !key) return;
        const stored = (await notebookApi.allNotes()).find((n) => String(n.subsectionId) === params.get("note"));
        if (!stored || stored.ciphertext === null) return;
        const opened = await readNote(key, info.id, stored);
        if (typeof opened !== "string") setNote(opened.text);
      })().catch(() => undefined);
    }
  }, []);

  const sent = withNote && note ? `${text.trim()}${text.trim() ? "\n\n" : ""}My note:\n${note}` : text.trim();
  async function onSubmit(event: SubmitEvent) {
    event.preventDefault();
    if (!sent) return;
    setBusy(true);
    setProblem(null);
    try {
      const next = await line.send(sent, passage ?? undefined);
      setText("");
      setWithNote(false);
      setPassage(null);
      setNote(null);
      history.replaceState(null, "", "/messages");
      onChange(async () => next);
    } catch (error) {
      setProblem(errorMessage(error));
    }
    setBusy(false);
  }

  const waiting = state.conversation?.dueAt;
  return (
    <>
      <section className={`${card} space-y-2`} aria-label="The promise">
        <p className="font-medium">Answers within {state.windowHours} hours.</p>
        {waiting ? (
          <p className={muted} data-testid="due">
            An answer to your oldest waiting message is due by {when(waiting)}.
          </p>
        ) : (
          <p className={muted}>Nothing is waiting for an answer.</p>
        )}
        <p className={muted}>
          The operator&apos;s key: <span className="font-mono" data-testid="operator-fingerprint">{state.operatorPrint}</span>. Ask them to read theirs to you to compare.
        </p>
      </section>
      {state.messages.length > 0 ? (
        <ol className="space-y-3" aria-label="Messages">
          {state.messages.map((message) => (
            <Message key={message.sequence} message={message} onDone={(answer) => onChange(() => line.taskDone(message.sequence, answer))} />
          ))}
        </ol>
      ) : (
        <p className={muted}>No messages yet. Ask about a passage, or tell the operator what happened when you tried an exercise.</p>
      )}
      <form className={`${card} space-y-3`} onSubmit={(e) => void onSubmit(e)}>
        {passage && (
          <p className="text-sm">
            About: <PassageName passage={passage} />{" "}
            <button type="button" className="underline underline-offset-4" onClick={() => setPassage(null)}>
              Remove
            </button>
          </p>
        )}
        <label className="block text-sm font-medium">
          Your message
          <textarea ref={box} className={field} rows={5} maxLength={MESSAGE_MAX_CHARS} value={text} onChange={(e) => setText(e.target.value)} />
        </label>
        {note !== null && (
          <div className="space-y-2">
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" checked={withNote} onChange={(e) => setWithNote(e.target.checked)} />
              Send my note on this passage with it
            </label>
            {withNote && (
              <div>
                <p className={muted}>This is exactly what will be sent:</p>
                <p className="mt-1 rounded-md border border-[var(--color-line)] p-3 text-sm whitespace-pre-wrap" data-testid="will-be-sent">
                  {sent}
                </p>
              </div>
            )}
          </div>
        )}
        {problem && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {problem}
          </p>
        )}
        <button type="submit" className={primary} disabled={busy || !sent}>
          {busy ? "Sending..." : "Send"}
        </button>
      </form>
    </>
  );
}

function Message({ message, onDone }: { message: OpenedMessage; onDone: (answer: string) => void }) {
  const [answering, setAnswering] = useState(false);
  const [answer, setAnswer] = useState("");
  const mine = message.sender === "member";
  return (
    <li className={`${card} ${mine ? "ml-8" : "mr-8"}`}>
      <p className={`text-xs ${"text-[var(--color-muted)]"}`}>
        {mine ? "You" : "The operator"} · {when(message.createdAt)}
        {mine && ` · ${message.readAt ? "Read" : "Sent"}`}
        {message.kind === "task" && ` · Task${message.taskDue ? `, due ${when(message.taskDue)}` : ""}${message.taskDoneAt ? " · done" : ""}`}
      </p>
      {message.plain?.passage && (
        <p className="mt-1 text-xs">
          About <PassageName passage={message.plain.passage} />
        </p>
      )}
      <p className="mt-2 text-sm whitespace-pre-wrap">{message.plain ? message.plain.text : "This message could not be opened on this device."}</p>
      {message.kind === "task" && !message.taskDoneAt && (
        <div className="mt-3 space-y-2">
          {answering && (
            <label className="block text-sm font-medium">
              Your answer (optional)
              <textarea className={field} rows={3} value={answer} onChange={(e) => setAnswer(e.target.value)} />
            </label>
          )}
          <div className="flex flex-wrap gap-2">
            {!answering && (
              <button type="button" className={quiet} onClick={() => setAnswering(true)}>
                Answer it
              </button>
            )}
            <button type="button" className={quiet} onClick={() => onDone(answer)}>
              Mark done
            </button>
          </div>
        </div>
      )}
    </li>
  );
}
