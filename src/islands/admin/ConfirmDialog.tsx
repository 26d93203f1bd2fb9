/** The confirmation asked before anything is deleted (SPEC.md section 5), or another irreversible step. */
import { useState } from "react";
import Dialog from "./Dialog.tsx";
import { dangerSolid, secondary } from "./ui.ts";

export interface Confirmation {
  title: string;
  message: string;
  confirmLabel: string;
  action: () => Promise<unknown> | void;
}

export default function ConfirmDialog({ confirmation, onClose }: { confirmation: Confirmation | null; onClose: () => void }) {
  const [pending, setPending] = useState(false);
  const confirm = async () => {
    if (!confirmation) return;
    setPending(true);
    try {
      await confirmation.action();
    } finally {
      setPending(false);
      onClose();
    }
  };
  return (
    <Dialog open={confirmation !== null} title={confirmation?.title ?? ""} description={confirmation?.message} onClose={onClose} role="alertdialog">
      <div className="flex justify-end gap-3">
        <button type="button" className={secondary} onClick={onClose} disabled={pending} data-autofocus>
          Cancel
        </button>
        <button type="button" className={dangerSolid} onClick={() => void confirm()} disabled={pending}>
          {confirmation?.confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
