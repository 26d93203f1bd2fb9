/**
 * What the chapter page's notebook asks the member (src/lib/notebook/chapter-notebook.ts `Ask`),
 * as dialogs: a passphrase to start or open the notebook, the recovery key shown once, a new one
 * when it was never kept, starting over, and two devices' versions of a note. Loaded only when
 * the notebook has a question: a reader writing, or a member whose device keeps the key, never
 * downloads it.
 */
import type { Answer, Ask } from "../../lib/notebook/chapter-notebook.ts";
import { ConflictForm, ModalDialog, RecoveryKey, RenewForm, RestartForm, SetupForm, UnlockForm } from "./forms.tsx";

export default function NotebookQuestions({ ask, answer }: { ask: Ask; answer: (answer: Answer) => void }) {
  const closed = () => answer({ kind: "closed" });
  switch (ask.kind) {
    case "setup":
      return (
        <ModalDialog title="Start your notebook" onClose={closed}>
          <SetupForm onStarted={(started) => answer({ kind: "started", ...started })} />
        </ModalDialog>
      );
    case "recovery":
      return (
        <ModalDialog title="Your recovery key">
          <RecoveryKey recoveryKey={ask.recoveryKey} onKept={() => answer({ kind: "confirmed" })} />
        </ModalDialog>
      );
    case "unlock":
      return (
        <ModalDialog title="Open your notebook" onClose={closed}>
          <UnlockForm info={ask.info} onOpened={(opened) => answer({ kind: "opened", ...opened })} onRestart={() => answer({ kind: "restart" })} />
        </ModalDialog>
      );
    case "renew":
      return (
        <ModalDialog title="Keep a recovery key" onClose={closed}>
          <RenewForm info={ask.info} onRenewed={(renewed) => answer({ kind: "renewed", ...renewed })} onLater={closed} />
        </ModalDialog>
      );
    case "restart":
      return (
        <ModalDialog title="Start a new notebook?" role="alertdialog" onClose={closed}>
          <RestartForm notes={ask.info.notes} onConfirm={async () => answer({ kind: "confirmed" })} onCancel={closed} />
        </ModalDialog>
      );
    case "conflict":
      return (
        <ModalDialog title="Two versions of this note" onClose={() => answer({ kind: "chosen", choice: "both" })}>
          <ConflictForm mine={ask.mine} theirs={ask.theirs} onChoose={(choice) => answer({ kind: "chosen", choice })} />
        </ModalDialog>
      );
  }
}
