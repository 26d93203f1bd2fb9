/**
 * The Access Codes tab (issue 6): issue a code for a level (the password is shown once, here),
 * the list with level, status and last use, deactivate/reactivate, and a password reset; and
 * (issue 14) each code's end date and cap on sessions at once, set when issuing it and changed
 * afterwards, its sessions open now, and ending them all. Codes are issued for the locked levels
 * only; on a phone or a narrow window the codes are a list of cards, from lg up a table (issue 22).
 */
import { useStore } from "@nanostores/react";
import { useEffect, useId, useState, type SubmitEvent } from "react";
import { accessCodeInput } from "../../lib/content-schemas.ts";
import { LOCKED_LEVELS, type Level } from "../../lib/levels.ts";
import { notify } from "../../lib/notify.ts";
import { isActiveCode, type AccessCodeEntry, type IssuedCode } from "../../stores/admin-api.ts";
import {
  $accessCodes,
  $accessCodesError,
  $accessCodesLoaded,
  endAccessCodeSessions,
  issueAccessCode,
  loadAccessCodes,
  resetAccessCodePassword,
  setAccessCodeActive,
} from "../../stores/admin-access-codes.ts";
import AccessCodeLimitsFields, { defaultLimits, limitsPayload, type LimitsValues } from "./AccessCodeLimitsFields.tsx";
import AccessCodeSettingsDialog from "./AccessCodeSettingsDialog.tsx";
import { notebookKept } from "./notebook-kept.ts";
import ConfirmDialog, { type Confirmation } from "./ConfirmDialog.tsx";
import { formatLastDay } from "./end-date.ts";
import Field from "./Field.tsx";
import { useFieldErrors } from "./form-errors.ts";
import LevelSelect from "./LevelSelect.tsx";
import LoadError from "./LoadError.tsx";
import Skeleton from "./Skeleton.tsx";
import { card, danger, formatTime, input, muted, primary, secondary } from "./ui.ts";

export default function AccessCodesTab() {
  const codes = useStore($accessCodes);
  const error = useStore($accessCodesError);
  const loaded = useStore($accessCodesLoaded);
  const [level, setLevel] = useState<Level>("Architect");
  const [login, setLogin] = useState("");
  const [limits, setLimits] = useState<LimitsValues>(defaultLimits);
  const { errors, validate } = useFieldErrors(accessCodeInput, { level, login: login.trim(), ...limitsPayload(limits) });
  const [editing, setEditing] = useState<AccessCodeEntry | null>(null);
  const [pending, setPending] = useState(false);
  const [shown, setShown] = useState<{ issued: IssuedCode; reset: boolean } | null>(null);
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);

  useEffect(() => {
    void loadAccessCodes();
  }, []);

  async function onIssue(event: SubmitEvent) {
    event.preventDefault();
    const data = validate();
    if (!data) return;
    setPending(true);
    const issued = await issueAccessCode(level, data.login ?? "", limitsPayload(limits));
    setPending(false);
    if (issued) {
      setShown({ issued, reset: false });
      setLogin("");
      setLimits(defaultLimits);
    }
  }

  const askEndSessions = (code: AccessCodeEntry) =>
    setConfirmation({
      title: "End all sessions?",
      message: `Everyone signed in with ${code.login} is signed out at once (${code.activeSessions} open now). The code keeps working: they can sign in again.`,
      confirmLabel: "End Sessions",
      action: () => endAccessCodeSessions(code.login),
    });

  const askDeactivate = (code: AccessCodeEntry) =>
    setConfirmation({
      title: "Deactivate this code?",
      message: `${code.login} opens nothing from now on, and everyone signed in with it is signed out at once. Reactivate it to let them in again.${notebookKept(code)}`,
      confirmLabel: "Deactivate",
      action: () => setAccessCodeActive(code.login, false),
    });

  const askReset = (codeLogin: string) =>
    setConfirmation({
      title: "Reset password?",
      message: `${codeLogin} gets a new password and its current password stops working at once.`,
      confirmLabel: "Reset Password",
      action: async () => {
        const issued = await resetAccessCodePassword(codeLogin);
        if (issued) setShown({ issued, reset: true });
      },
    });

  return (
    <div className="space-y-6">
      <section className={card} aria-labelledby="issue-code-title">
        <h2 id="issue-code-title" className="font-serif text-lg">
          Issue an access code
        </h2>
        <form className="mt-4 grid items-start gap-4 sm:grid-cols-2 lg:grid-cols-[10rem_1fr_11rem_10rem_auto]" onSubmit={(e) => void onIssue(e)} noValidate>
          <Field label="Level">
            <LevelSelect value={level} onChange={setLevel} levels={LOCKED_LEVELS} />
          </Field>
          <Field label="Login (optional)" hint="Leave empty to generate one." error={errors.login}>
            <input className={input} value={login} onChange={(e) => setLogin(e.target.value)} autoComplete="off" />
          </Field>
          <AccessCodeLimitsFields values={limits} onChange={setLimits} errors={errors} />
          <button type="submit" className={`${primary} sm:mt-6`} disabled={pending}>
            {pending ? "Issuing..." : "Issue Code"}
          </button>
        </form>
        {shown && <IssuedCredentials issued={shown.issued} reset={shown.reset} onDone={() => setShown(null)} />}
      </section>

      <section aria-labelledby="codes-title">
        <h2 id="codes-title" className="font-serif text-lg">
          {error || !loaded ? "Access codes" : `Access codes (${codes.length})`}
        </h2>
        {!loaded ? (
          <Skeleton label="Loading access codes..." className="mt-2" />
        ) : error ? (
          <LoadError what="access codes" error={error} onRetry={loadAccessCodes} className="mt-2" />
        ) : codes.length === 0 ? (
          <p className={`${muted} mt-2`}>No access codes yet.</p>
        ) : (
          <>
            {/* A phone or narrow window: a list of codes, each its own card, with no sideways scrolling. */}
            <ul className="mt-3 space-y-3 lg:hidden" data-testid="access-code-list">
              {codes.map((code) => (
                <li key={code.id} className="rounded-lg border border-[var(--color-line)] bg-[var(--color-panel)] p-4">
                  <h3 className="font-mono font-medium break-all">{code.login}</h3>
                  <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                    <dt className="text-[var(--color-muted)]">Level</dt>
                    <dd>{code.level}</dd>
                    <dt className="text-[var(--color-muted)]">Status</dt>
                    <dd>{statusOf(code)}</dd>
                    <dt className="text-[var(--color-muted)]">Ends after</dt>
                    <dd>{formatLastDay(code.expiresAt)}</dd>
                    <dt className="text-[var(--color-muted)]">Sessions</dt>
                    <dd>
                      {code.activeSessions} of {code.maxSessions}
                    </dd>
                    <dt className="text-[var(--color-muted)]">Last used</dt>
                    <dd>{code.lastUsedAt ? formatTime(code.lastUsedAt) : "Never"}</dd>
                  </dl>
                  <div className="mt-3 flex flex-wrap gap-2">
                    <CodeActions code={code} onReset={askReset} onSettings={setEditing} onEndSessions={askEndSessions} onDeactivate={askDeactivate} />
                  </div>
                </li>
              ))}
            </ul>
            <div className="relative mt-3 hidden overflow-x-auto rounded-lg border border-[var(--color-line)] lg:block">
              <table className="w-full border-collapse bg-[var(--color-panel)] text-left text-sm">
                <thead className="border-b border-[var(--color-line)] whitespace-nowrap text-[var(--color-muted)]">
                  <tr>
                    <th scope="col" className="px-2 py-2 font-medium">Login</th>
                    <th scope="col" className="px-2 py-2 font-medium">Level</th>
                    <th scope="col" className="px-2 py-2 font-medium">Status</th>
                    <th scope="col" className="px-2 py-2 font-medium">Ends after</th>
                    <th scope="col" className="px-2 py-2 font-medium">Sessions</th>
                    <th scope="col" className="px-2 py-2 font-medium">Last used</th>
                    <th scope="col" className="px-2 py-2 font-medium">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {codes.map((code) => (
                    <tr key={code.id} className="border-b border-[var(--color-line)] last:border-0">
                      <td className="px-2 py-2 font-mono">{code.login}</td>
                      <td className="px-2 py-2">{code.level}</td>
                      <td className="px-2 py-2">{statusOf(code)}</td>
                      <td className="px-2 py-2 whitespace-nowrap" title={code.expiresAt ? `Ends ${formatTime(code.expiresAt)}` : undefined}>
                        {formatLastDay(code.expiresAt)}
                      </td>
                      <td className="px-2 py-2" data-testid="code-sessions">
                        {code.activeSessions} of {code.maxSessions}
                      </td>
                      <td className="px-2 py-2">{code.lastUsedAt ? formatTime(code.lastUsedAt) : "Never"}</td>
                      <td className="px-2 py-2">
                        <div className="flex justify-end gap-1.5">
                          <CodeActions code={code} onReset={askReset} onSettings={setEditing} onEndSessions={askEndSessions} onDeactivate={askDeactivate} />
                        </div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </section>
      <ConfirmDialog confirmation={confirmation} onClose={() => setConfirmation(null)} />
      <AccessCodeSettingsDialog code={editing} onClose={() => setEditing(null)} />
    </div>
  );
}

const statusOf = (code: AccessCodeEntry) => (!isActiveCode(code) ? "Inactive" : code.expired ? "Expired" : "Active");

/** A code's four actions, the same in the table and in the phone's list. */
function CodeActions({
  code,
  onReset,
  onSettings,
  onEndSessions,
  onDeactivate,
}: {
  code: AccessCodeEntry;
  onReset: (login: string) => void;
  onSettings: (code: AccessCodeEntry) => void;
  onEndSessions: (code: AccessCodeEntry) => void;
  onDeactivate: (code: AccessCodeEntry) => void;
}) {
  const active = isActiveCode(code);
  return (
    <>
      {/* Destructive, and looks it (issue 34: 12); it asks first. */}
      <button
        type="button"
        className={active ? danger : secondary}
        onClick={() => (active ? onDeactivate(code) : void setAccessCodeActive(code.login, true))}
        aria-label={`${active ? "Deactivate" : "Reactivate"} ${code.login}`}
      >
        {active ? "Deactivate" : "Reactivate"}
      </button>
      <button type="button" className={secondary} onClick={() => onReset(code.login)} aria-label={`Reset password of ${code.login}`}>
        Reset Password
      </button>
      <button type="button" className={secondary} onClick={() => onSettings(code)} aria-label={`Settings of ${code.login}`}>
        Settings
      </button>
      <button
        type="button"
        className={secondary}
        onClick={() => onEndSessions(code)}
        disabled={code.activeSessions === 0}
        aria-label={`End Sessions of ${code.login}`}
      >
        End Sessions
      </button>
    </>
  );
}

function IssuedCredentials({ issued, reset, onDone }: { issued: IssuedCode; reset: boolean; onDone: () => void }) {
  const titleId = useId();
  return (
    <div role="region" aria-labelledby={titleId} className="mt-5 rounded-md border-2 border-[var(--color-accent)] p-4" data-testid="issued-code">
      <h3 id={titleId} className="font-medium">
        {reset ? `New password for ${issued.login}` : `New ${issued.level} access code`}
      </h3>
      <p className="mt-1 text-sm font-medium">The password is shown only now. Copy it and give it to the client: it cannot be shown again.</p>
      <dl className="mt-3 space-y-2 text-sm">
        <Credential name="Login" value={issued.login} />
        <Credential name="Password" value={issued.password} />
      </dl>
      <button type="button" className={`${secondary} mt-4`} onClick={onDone}>
        Done
      </button>
    </div>
  );
}

function Credential({ name, value }: { name: string; value: string }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      notify({ title: "Copied", description: `${name} copied to the clipboard` });
    } catch {
      notify({ title: "Copy failed", description: "Select the text and copy it by hand.", variant: "destructive" });
    }
  };
  return (
    <div className="flex flex-wrap items-center gap-3">
      <dt className="w-20 text-[var(--color-muted)]">{name}</dt>
      <dd className="flex flex-wrap items-center gap-3">
        <span className="select-all font-mono break-all" data-testid={`issued-${name.toLowerCase()}`}>
          {value}
        </span>
        <button type="button" className={secondary} onClick={() => void copy()} aria-label={`Copy ${name.toLowerCase()}`}>
          Copy
        </button>
      </dd>
    </div>
  );
}
