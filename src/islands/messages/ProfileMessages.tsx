/**
 * The direct line on /profile (issue 43): a link to Messages with the number of unread replies, and
 * "Your tasks": the operator's open tasks, opened in this browser when the notebook's key is on it,
 * each marked done here with an optional answer. Nothing for a code whose tier has no direct line.
 */
import { useEffect, useRef, useState } from "react";
import { errorMessage } from "../../lib/api-client.ts";
import { MemberLine, type MemberLineState } from "../../lib/messages/member-line.ts";
import { field, quiet } from "../notebook/forms.tsx";
import { PassageName } from "./MessagesPage.tsx";
import { useSettledOnce } from "../auth/shown-whole.ts";

const heading = "text-sm font-semibold tracking-wide text-[var(--color-muted)] uppercase";
const muted = "text-sm text-[var(--color-muted)]";

export default function ProfileMessages({ className, onSettled }: { className: string; onSettled?: () => void }) {
  const line = useRef(new MemberLine()).current;
  const [state, setState] = useState<MemberLineState | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [answers, setAnswers] = useState<Record<number, string>>({});

  const run = (work: () => Promise<MemberLineState>) =>
    work().then(
      (next) => {
        setState(next);
        setFailure(null);
      },
      (error: unknown) => setFailure(errorMessage(error)),
    );
  useEffect(() => {
    void run(() => line.load());
  }, []);
  useSettledOnce(state !== null || failure !== null, onSettled);

  if (state?.kind === "closed" && state.reason === "tier") return null;
  const open = state?.kind === "open" ? state : null;
  const unread = open ? open.messages.filter((m) => m.sender === "operator" && !m.readAt).length : 0;
  const tasks = open ? open.messages.filter((m) => m.kind === "task" && !m.taskDoneAt) : [];
  return (
    <section className={className} aria-labelledby="messages-title" aria-busy={state === null && failure === null}>
      <h2 id="messages-title" className={heading}>
        Your direct line
      </h2>
      <p className="mt-3">
        <a href="/messages" className="underline underline-offset-4">
          Messages{unread > 0 && ` (${unread} unread)`}
        </a>
        {open && <span className={muted}> · answers within {open.windowHours} hours</span>}
      </p>
      {failure && (
        <p role="alert" className="mt-2 text-sm">
          Your messages could not be loaded: {failure}
        </p>
      )}
      <h3 className="mt-5 font-medium">Your tasks</h3>
      {state === null && !failure && <p className={`mt-2 ${muted}`}>Loading...</p>}
      {state && state.kind !== "open" && <p className={`mt-2 ${muted}`}>Open your messages (with your notebook) to read your tasks.</p>}
      {open && tasks.length === 0 && <p className={`mt-2 ${muted}`}>No open tasks.</p>}
      {tasks.length > 0 && (
        <ul className="mt-2 space-y-3" aria-label="Your tasks">
          {tasks.map((task) => (
            <li key={task.sequence} className="rounded-md border border-[var(--color-line)] p-4">
              {task.plain?.passage && (
                <p className={`mb-1 text-xs ${muted}`}>
                  About <PassageName passage={task.plain.passage} />
                </p>
              )}
              <p className="text-sm whitespace-pre-wrap">{task.plain ? task.plain.text : "This task could not be opened on this device."}</p>
              {task.taskDue && <p className={`mt-1 text-xs ${muted}`}>Due {new Intl.DateTimeFormat(undefined, { dateStyle: "medium" }).format(new Date(task.taskDue))}</p>}
              <label className="mt-3 block text-sm font-medium">
                Your answer (optional)
                <textarea className={field} rows={2} value={answers[task.sequence] ?? ""} onChange={(e) => setAnswers({ ...answers, [task.sequence]: e.target.value })} />
              </label>
              <button type="button" className={`${quiet} mt-2`} onClick={() => void run(() => line.taskDone(task.sequence, answers[task.sequence] ?? ""))}>
                Mark done
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
