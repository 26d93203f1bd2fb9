/**
 * The Messages tab (issue 43): the direct line's inbox, sorted by when an answer is due, each
 * conversation with its code's login, tier, last message, and "due in 3 h", "overdue by 2 h",
 * "answered" or "no reply needed"; a conversation opened, replied to, sent a task, marked as
 * needing no reply, or deleted; the windows per tier; and the messaging key, made here once and
 * opened on each device with the operator's passphrase. Everything is opened and sealed in this
 * browser (src/lib/messages/operator-line.ts): the server holds ciphertext only.
 */
import { useEffect, useRef, useState, type SubmitEvent } from "react";
import { apiRequest, errorMessage } from "../../lib/api-client.ts";
import { WrongSecretError } from "../../lib/notebook/crypto.ts";
import { dueWords, type OpenedMessage } from "../../lib/messages/line.ts";
import type { PassageRef } from "../../lib/messages/crypto.ts";
import { levelOf, LEVELS } from "../../lib/levels.ts";
import { useStore } from "@nanostores/react";
import { $chapters } from "../../stores/admin-content.ts";
import type { AdminSubsection } from "../../stores/admin-api.ts";
import { OperatorLine, type InboxEntry, type OpenConversation, type OperatorKeyState } from "../../lib/messages/operator-line.ts";
import { notify } from "../../lib/notify.ts";
import { CurrentPassphrase, ModalDialog, NewPassphrase, passphraseProblem, Problem, RecoveryKey } from "../notebook/forms.tsx";
import ConfirmDialog, { type Confirmation } from "./ConfirmDialog.tsx";
import { badge, card, danger, formatTime, input, label, muted, primary, secondary } from "./ui.ts";

/** What the line protects against, and what not: said where the key is made and opened. */
function Protection() {
  return (
    <p className={muted}>
      Messages are encrypted in the browser that writes them, under a key only the member and this panel can derive. The site&apos;s server,
      its database, backups, logs and webhooks hold only encrypted text, or no words at all. What this cannot protect against: a changed
      version of the site&apos;s code reading what is typed before it is encrypted. And you, the operator, read what members send you: that is
      what it is for.
    </p>
  );
}

/** How a conversation stands, in words, and whether it is overdue. */
export function standing(entry: { dueAt: string | null; settled: "answered" | "no_reply" | null }, now: Date): { text: string; overdue: boolean } {
  if (entry.dueAt) return dueWords(entry.dueAt, now);
  return { text: entry.settled === "no_reply" ? "no reply needed" : entry.settled === "answered" ? "answered" : "no messages yet", overdue: false };
}

const snippet = (message: OpenedMessage | null) => (message ? (message.plain ? message.plain.text.slice(0, 100) : "(could not be opened here)") : "");

export default function MessagesTab({ onWaiting }: { onWaiting: (waiting: number) => void }) {
  const line = useRef(new OperatorLine()).current;
  const [key, setKey] = useState<OperatorKeyState | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [recoveryKey, setRecoveryKey] = useState<string | null>(null);

  async function load() {
    try {
      setKey(await line.status());
      setFailure(null);
    } catch (error) {
      setFailure(errorMessage(error));
    }
  }
  useEffect(() => {
    void load();
  }, []);

  if (failure) {
    return (
      <p role="alert" className="mt-4 text-sm">
        The messages could not be loaded: {failure}{" "}
        <button type="button" className="underline" onClick={() => void load()}>
          Try again
        </button>
      </p>
    );
  }
  if (!key) return <p className={`mt-4 ${muted}`}>Loading...</p>;
  return (
    <div className="mt-4 space-y-6">
      {key.kind === "none" && <MakeKey line={line} onMade={setRecoveryKey} />}
      {key.kind === "locked" && <OpenKey line={line} onOpened={() => void load()} />}
      {key.kind === "open" && <Inbox line={line} print={key.print} recoveryKept={key.info.recoveryKept} onWaiting={onWaiting} onRenewed={setRecoveryKey} />}
      {recoveryKey && (
        <ModalDialog title="The messaging key's recovery key">
          <RecoveryKey
            of="the messages"
            recoveryKey={recoveryKey}
            onKept={() => {
              setRecoveryKey(null);
              void line.recoveryKept().then(load, load);
            }}
          />
        </ModalDialog>
      )}
    </div>
  );
}

/** Makes the messaging key, once: a passphrase of the operator's own, then its recovery key shown once. */
function MakeKey({ line, onMade }: { line: OperatorLine; onMade: (recoveryKey: string) => void }) {
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
      if (!wrong) onMade((await line.create(passphrase)).recoveryKey);
    } catch (error) {
      setProblem(errorMessage(error));
    }
    setBusy(false);
  }
  return (
    <form className={`${card} max-w-xl space-y-4`} onSubmit={(e) => void onSubmit(e)} noValidate>
      <h2 className="font-serif text-xl">Make the messaging key</h2>
      <p className="text-sm">
        Members write to you on the direct line once this key exists. Choose a passphrase of your own: every admin opens the messages with it,
        once on each device. Nobody can reset it: keep it, and keep the recovery key shown next.
      </p>
      <Protection />
      <NewPassphrase label="Messaging passphrase" value={passphrase} onChange={setPassphrase} again={again} onAgain={setAgain} />
      <Problem text={problem} />
      <button type="submit" className={primary} disabled={busy}>
        {busy ? "Making it..." : "Make the messaging key"}
      </button>
    </form>
  );
}

/** Opens the messaging key on this device: its passphrase, or the recovery key and a new passphrase. */
function OpenKey({ line, onOpened }: { line: OperatorLine; onOpened: () => void }) {
  const [recovering, setRecovering] = useState(false);
  const [passphrase, setPassphrase] = useState("");
  const [again, setAgain] = useState("");
  const [recoveryKey, setRecoveryKey] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function onSubmit(event: SubmitEvent) {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      if (recovering) {
        const wrong = await passphraseProblem(passphrase, again);
        if (wrong) throw new Error(wrong);
        await line.recover(recoveryKey, passphrase);
        notify({ title: "New passphrase set", description: "The messaging key now opens with the new passphrase, for every admin." });
      } else {
        await line.unlock(passphrase);
      }
      onOpened();
    } catch (error) {
      setProblem(error instanceof WrongSecretError ? `That ${recovering ? "recovery key" : "passphrase"} does not open the messaging key.` : errorMessage(error));
      setBusy(false);
    }
  }
  return (
    <form className={`${card} max-w-xl space-y-4`} onSubmit={(e) => void onSubmit(e)} noValidate>
      <h2 className="font-serif text-xl">Open the messages on this device</h2>
      <Protection />
      {recovering ? (
        <>
          <label className={label}>
            Recovery key
            <input className={`${input} font-mono`} value={recoveryKey} onChange={(e) => setRecoveryKey(e.target.value)} autoComplete="off" />
          </label>
          <NewPassphrase label="New messaging passphrase" value={passphrase} onChange={setPassphrase} again={again} onAgain={setAgain} />
        </>
      ) : (
        <CurrentPassphrase value={passphrase} onChange={setPassphrase} label="Messaging passphrase" />
      )}
      <Problem text={problem} />
      <div className="flex flex-wrap gap-3">
        <button type="submit" className={primary} disabled={busy || !passphrase}>
          {busy ? "Opening..." : "Open the messages"}
        </button>
        <button
          type="button"
          className={secondary}
          onClick={() => {
            setRecovering(!recovering);
            setPassphrase("");
            setAgain("");
            setProblem(null);
          }}
        >
          {recovering ? "Use the passphrase" : "Use the recovery key"}
        </button>
      </div>
    </form>
  );
}

function Inbox({ line, print, recoveryKept, onWaiting, onRenewed }: { line: OperatorLine; print: string; recoveryKept: boolean; onWaiting: (waiting: number) => void; onRenewed: (recoveryKey: string) => void }) {
  const [entries, setEntries] = useState<InboxEntry[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [login, setLogin] = useState("");
  const [renewing, setRenewing] = useState(false);

  async function load() {
    try {
      const { conversations, waiting } = await line.inbox();
      setEntries(conversations);
      onWaiting(waiting);
      setFailure(null);
    } catch (error) {
      setFailure(errorMessage(error));
    }
  }
  useEffect(() => {
    void load();
  }, []);

  if (open) {
    return (
      <Conversation
        line={line}
        id={open}
        onBack={() => {
          setOpen(null);
          void load();
        }}
      />
    );
  }
  const now = new Date();
  return (
    <>
      {!recoveryKept && (
        <div role="note" className={`${card} max-w-xl space-y-3 text-sm`}>
          <p>The messaging key&apos;s recovery key was never confirmed as kept. Without it, a forgotten passphrase means nobody can read the messages again.</p>
          <button type="button" className={secondary} onClick={() => setRenewing(true)}>
            Make a new recovery key
          </button>
        </div>
      )}
      {renewing && (
        <ModalDialog title="A new recovery key" onClose={() => setRenewing(false)}>
          <RenewKey
            line={line}
            onRenewed={(recoveryKey) => {
              setRenewing(false);
              onRenewed(recoveryKey);
            }}
          />
        </ModalDialog>
      )}
      <div className="flex flex-wrap items-end justify-between gap-4">
        <p className={muted}>
          The messaging key&apos;s fingerprint: <span className="font-mono" data-testid="operator-fingerprint">{print}</span>. A member sees the same on
          their Messages page.
        </p>
        <button type="button" className={secondary} onClick={() => void load()}>
          Refresh
        </button>
      </div>
      {failure && (
        <p role="alert" className="text-sm">
          The conversations could not be loaded: {failure}
        </p>
      )}
      {entries === null ? (
        <p className={muted}>Loading...</p>
      ) : entries.length === 0 ? (
        <p className={muted}>No conversations yet. A member&apos;s first message starts one.</p>
      ) : (
        <ul className="space-y-3" aria-label="Conversations">
          {entries.map((entry) => {
            const { text, overdue } = standing(entry, now);
            return (
              <li key={entry.id}>
                <button type="button" className={`${card} block w-full text-left hover:border-[var(--color-muted)]`} onClick={() => setOpen(entry.id)}>
                  <span className="flex flex-wrap items-center gap-2">
                    <span className="font-medium">{entry.login}</span>
                    <span className={badge}>{entry.tier}</span>
                    {!entry.active && <span className={badge}>ended</span>}
                    {entry.unread > 0 && <span className={`${badge} border-[var(--color-accent)]`}>{entry.unread} unread</span>}
                    <span className={`ml-auto text-sm font-medium ${overdue ? "text-red-700 dark:text-red-400" : "text-[var(--color-muted)]"}`} data-testid="standing">
                      {text}
                    </span>
                  </span>
                  <span className={`mt-2 block ${muted}`}>{snippet(entry.last)}</span>
                  {(entry.openTasks > 0 || entry.doneTasks > 0) && (
                    <span className={`mt-1 block text-xs ${muted}`}>
                      Tasks: {entry.openTasks} open, {entry.doneTasks} done
                    </span>
                  )}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          void apiRequest<{ id: string }>("POST", "/api/admin/conversations", { login: login.trim() }).then(
            ({ id }) => setOpen(id),
            (error: unknown) => notify({ title: "Error", description: errorMessage(error), variant: "destructive" }),
          );
        }}
      >
        <label className={label}>
          Write first to an access code
          <input className={input} value={login} onChange={(e) => setLogin(e.target.value)} placeholder="Login" />
        </label>
        <button type="submit" className={secondary} disabled={!login.trim()}>
          Open the conversation
        </button>
      </form>
      <ReplyWindows />
    </>
  );
}

function RenewKey({ line, onRenewed }: { line: OperatorLine; onRenewed: (recoveryKey: string) => void }) {
  const [passphrase, setPassphrase] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <form
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        void line.renewRecovery(passphrase).then(
          ({ recoveryKey }) => onRenewed(recoveryKey),
          (error: unknown) => setProblem(error instanceof WrongSecretError ? "That passphrase does not open the messaging key." : errorMessage(error)),
        );
      }}
    >
      <CurrentPassphrase value={passphrase} onChange={setPassphrase} label="Messaging passphrase" />
      <Problem text={problem} />
      <button type="submit" className={primary} disabled={!passphrase}>
        Make a new recovery key
      </button>
    </form>
  );
}

/** The windows answers are due within, per tier. */
function ReplyWindows() {
  const [windows, setWindows] = useState<{ architectHours: number; mastermindHours: number } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    void apiRequest<{ architectHours: number; mastermindHours: number }>("GET", "/api/admin/messaging-settings").then(setWindows, (error: unknown) => setProblem(errorMessage(error)));
  }, []);
  if (!windows) return <Problem text={problem} />;
  return (
    <form
      className={`${card} max-w-xl space-y-3`}
      onSubmit={(event) => {
        event.preventDefault();
        void apiRequest<typeof windows>("PUT", "/api/admin/messaging-settings", windows).then(
          (saved) => {
            setWindows(saved);
            setProblem(null);
            notify({ title: "Success", description: "Answer windows saved" });
          },
          (error: unknown) => setProblem(errorMessage(error)),
        );
      }}
    >
      <h2 className="font-serif text-lg">Answer windows</h2>
      <p className={muted}>How long an answer may take after a member writes: the inbox counts down from it, and members see it.</p>
      <div className="flex flex-wrap gap-4">
        <label className={label}>
          Architect (hours)
          <input className={input} type="number" min={1} max={720} value={windows.architectHours} onChange={(e) => setWindows({ ...windows, architectHours: Number(e.target.value) })} />
        </label>
        <label className={label}>
          Mastermind (hours)
          <input className={input} type="number" min={1} max={720} value={windows.mastermindHours} onChange={(e) => setWindows({ ...windows, mastermindHours: Number(e.target.value) })} />
        </label>
      </div>
      <Problem text={problem} />
      <button type="submit" className={secondary}>
        Save the windows
      </button>
    </form>
  );
}

function Conversation({ line, id, onBack }: { line: OperatorLine; id: string; onBack: () => void }) {
  const [open, setOpen] = useState<OpenConversation | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [text, setText] = useState("");
  const [asTask, setAsTask] = useState(false);
  const [due, setDue] = useState("");
  const [passage, setPassage] = useState<PassageRef | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);

  async function load() {
    try {
      setOpen(await line.conversation(id));
      setFailure(null);
    } catch (error) {
      setFailure(errorMessage(error));
    }
  }
  useEffect(() => {
    void load();
  }, [id]);

  async function onSubmit(event: SubmitEvent) {
    event.preventDefault();
    if (!open || !text.trim()) return;
    setBusy(true);
    try {
      await line.reply(open, passage ? { text: text.trim(), passage } : { text: text.trim() }, asTask ? { due: due ? new Date(`${due}T23:59:59`).toISOString() : null } : undefined);
      setText("");
      setAsTask(false);
      setDue("");
      setPassage(null);
      await load();
    } catch (error) {
      notify({ title: "Not sent", description: errorMessage(error), variant: "destructive" });
    }
    setBusy(false);
  }

  const now = new Date();
  return (
    <section className="space-y-4" aria-label="Conversation">
      <button type="button" className={secondary} onClick={onBack}>
        Back to the conversations
      </button>
      {failure && (
        <p role="alert" className="text-sm">
          The conversation could not be loaded: {failure}
        </p>
      )}
      {open && (
        <>
          <div className="flex flex-wrap items-center gap-2">
            <h2 className="font-serif text-xl">{open.login}</h2>
            <span className={badge}>{open.conversation.tier}</span>
            <span className={`text-sm ${standing(open.conversation, now).overdue ? "text-red-700 dark:text-red-400" : "text-[var(--color-muted)]"}`}>{standing(open.conversation, now).text}</span>
          </div>
          <ol className="space-y-3" aria-label="Messages">
            {open.messages.map((message) => (
              <li key={message.sequence} className={`${card} ${message.sender === "operator" ? "ml-8" : "mr-8"}`}>
                <p className={`text-xs ${muted}`}>
                  {message.sender === "operator" ? "You" : open.login} · {formatTime(message.createdAt)}
                  {message.sender === "operator" && ` · ${message.readAt ? "Read" : "Sent"}`}
                  {message.kind === "task" && ` · Task${message.taskDue ? `, due ${formatTime(message.taskDue)}` : ""}: ${message.taskDoneAt ? `done ${formatTime(message.taskDoneAt)}` : "open"}`}
                  {message.answerTo && ` · answers task ${message.answerTo}`}
                </p>
                {message.plain?.passage && (
                  <p className={`mt-1 text-xs ${muted}`}>
                    About {message.plain.passage.level} · {message.plain.passage.chapterTitle} · {String(message.plain.passage.sectionNumber).padStart(2, "0")} {message.plain.passage.sectionTitle}
                  </p>
                )}
                <p className="mt-2 text-sm whitespace-pre-wrap">{message.plain ? message.plain.text : "This message could not be opened here."}</p>
              </li>
            ))}
          </ol>
          {open.messages.length === 0 && <p className={muted}>No messages yet.</p>}
          <form className={`${card} space-y-3`} onSubmit={(e) => void onSubmit(e)}>
            <label className={label}>
              Your reply
              <textarea className={input} rows={5} maxLength={10_000} value={text} onChange={(e) => setText(e.target.value)} />
            </label>
            <div className="flex flex-wrap items-end gap-4">
              <label className="flex items-center gap-2 text-sm">
                <input type="checkbox" checked={asTask} onChange={(e) => setAsTask(e.target.checked)} />
                Send as a task
              </label>
              {asTask && (
                <label className={label}>
                  Due (optional)
                  <input className={input} type="date" value={due} onChange={(e) => setDue(e.target.value)} />
                </label>
              )}
            </div>
            <PassagePicker tier={open.conversation.tier} passage={passage} onChange={setPassage} />
            <div className="flex flex-wrap gap-3">
              <button type="submit" className={primary} disabled={busy || !text.trim() || !open.memberKey}>
                {busy ? "Sending..." : "Send"}
              </button>
              {open.conversation.dueAt && (
                <button type="button" className={secondary} onClick={() => void apiRequest("PUT", `/api/admin/conversations/${id}/no-reply`).then(load)}>
                  No reply needed
                </button>
              )}
              <button
                type="button"
                className={danger}
                onClick={() =>
                  setConfirmation({
                    title: "Delete this conversation?",
                    message: `Every message with ${open.login} goes, for you and for them. Nobody can bring it back.`,
                    confirmLabel: "Delete the conversation",
                    action: async () => {
                      await apiRequest("DELETE", `/api/admin/conversations/${id}`);
                      onBack();
                    },
                  })
                }
              >
                Delete the conversation
              </button>
            </div>
            {!open.memberKey && <p className={muted}>This member has not opened their messages yet: there is no key of theirs to seal a message to.</p>}
          </form>
        </>
      )}
      <ConfirmDialog confirmation={confirmation} onClose={() => setConfirmation(null)} />
    </section>
  );
}

/**
 * A passage a reply or a task is about (optional): a live chapter of a level the member may read,
 * then one of its subsections, named as readers see them (the chapter's place in its level, the
 * subsection's number).
 */
function PassagePicker({ tier, passage, onChange }: { tier: string; passage: PassageRef | null; onChange: (passage: PassageRef | null) => void }) {
  const chapters = useStore($chapters);
  const [chapterId, setChapterId] = useState<number | null>(null);
  const [parts, setParts] = useState<AdminSubsection[]>([]);
  const rank = LEVELS.indexOf(levelOf(tier));
  const live = chapters
    .filter((c) => c.status !== "draft" && LEVELS.indexOf(levelOf(c.level)) <= rank)
    .sort((a, b) => LEVELS.indexOf(levelOf(a.level)) - LEVELS.indexOf(levelOf(b.level)) || a.order - b.order || a.id - b.id);
  const chapter = live.find((c) => c.id === chapterId);
  const numberOf = (c: (typeof live)[number]) => live.filter((o) => levelOf(o.level) === levelOf(c.level)).indexOf(c) + 1;
  useEffect(() => {
    if (chapterId === null) return setParts([]);
    void apiRequest<AdminSubsection[]>("GET", `/api/admin/chapters/${chapterId}/subsections`).then(
      (found) => setParts(found.filter((part) => part.status !== "draft").sort((a, b) => a.order - b.order || a.id - b.id)),
      () => setParts([]),
    );
  }, [chapterId]);
  return (
    <div className="flex flex-wrap items-end gap-4">
      <label className={label}>
        About a passage (optional): chapter
        <select
          className={input}
          value={chapterId ?? ""}
          onChange={(e) => {
            setChapterId(e.target.value ? Number(e.target.value) : null);
            onChange(null);
          }}
        >
          <option value="">None</option>
          {live.map((c) => (
            <option key={c.id} value={c.id}>
              {levelOf(c.level)} · {String(numberOf(c)).padStart(2, "0")} {c.title}
            </option>
          ))}
        </select>
      </label>
      {chapter && (
        <label className={label}>
          Subsection
          <select
            className={input}
            value={passage?.sectionSlug ?? ""}
            onChange={(e) => {
              const index = parts.findIndex((part) => part.slug === e.target.value);
              const part = parts[index];
              onChange(
                part
                  ? {
                      level: levelOf(chapter.level),
                      chapterSlug: chapter.slug,
                      chapterTitle: chapter.title,
                      chapterNumber: numberOf(chapter),
                      sectionSlug: part.slug,
                      sectionTitle: part.title,
                      sectionNumber: index + 1,
                    }
                  : null,
              );
            }}
          >
            <option value="">Choose one</option>
            {parts.map((part, index) => (
              <option key={part.id} value={part.slug}>
                {String(index + 1).padStart(2, "0")} {part.title}
              </option>
            ))}
          </select>
        </label>
      )}
    </div>
  );
}
