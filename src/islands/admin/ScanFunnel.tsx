/**
 * Drop-off and segments (issue 15): per question, how many scans reached it and how many stopped
 * there; and completions per result band, week by week. Plain tables: exact figures a screen
 * reader reads as well as anyone.
 */
import { useStore } from "@nanostores/react";
import { useEffect, Fragment } from "react";
import { $funnel, $funnelError, loadFunnel, type ScanFunnel as Funnel } from "../../stores/admin-submissions.ts";
import LoadError from "./LoadError.tsx";
import { card, muted } from "./ui.ts";

const percent = (part: number, whole: number) => (whole === 0 ? "—" : `${Math.round((part / whole) * 100)}%`);
const th = "px-2 py-1.5 font-medium";
const td = "px-2 py-1.5 tabular-nums";

export default function ScanFunnel() {
  const funnel = useStore($funnel);
  const error = useStore($funnelError);
  useEffect(() => {
    void loadFunnel();
  }, []);
  if (error) {
    return <LoadError what="the drop-off figures" error={error} onRetry={loadFunnel} />;
  }
  if (!funnel) return null;
  return (
    <div className="grid gap-5 lg:grid-cols-2">
      <DropOff funnel={funnel} />
      <BandWeeks funnel={funnel} />
    </div>
  );
}

function DropOff({ funnel }: { funnel: Funnel }) {
  return (
    <section className={`${card} min-w-0`} aria-labelledby="drop-off-title">
      <h2 id="drop-off-title" className="font-serif text-lg">
        Where people stop
      </h2>
      <p className={muted} data-testid="funnel-summary">
        {`${funnel.opened} ${funnel.opened === 1 ? "scan" : "scans"} opened, ${funnel.started} started, ${funnel.completed} completed (${percent(funnel.completed, funnel.started)} of those started).`}{" "}
        A visit to the assessment opens a scan; its first answer starts it. Unfinished scans are kept for the retention period only.
      </p>
      {/* Scrolls on its own: focusable, so a keyboard can scroll it too. */}
      <div className="mt-3 max-h-96 overflow-auto" tabIndex={0} role="region" aria-label="Drop-off per question, scrollable">
        <table className="w-full border-collapse text-left text-sm" aria-label="Drop-off per question">
          <thead className="sticky top-0 border-b border-[var(--color-line)] bg-[var(--color-panel)] text-[var(--color-muted)]">
            <tr>
              <th scope="col" className={th}>Step</th>
              <th scope="col" className={`${th} text-right`}>Reached</th>
              <th scope="col" className={`${th} text-right`}>Stopped there</th>
              <th scope="col" className={`${th} text-right`}>Drop-off</th>
            </tr>
          </thead>
          <tbody>
            {funnel.steps.map((s) => (
              <tr key={s.step} className="border-b border-[var(--color-line)] last:border-0" data-testid={`funnel-${s.step}`}>
                <th scope="row" className={`${th} text-left`}>
                  {s.step === "contact" ? "Name and email" : `Question ${s.step}`}
                </th>
                <td className={`${td} text-right`}>{s.reached}</td>
                <td className={`${td} text-right`}>{s.stopped}</td>
                <td className={`${td} text-right`}>{percent(s.stopped, s.reached)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function BandWeeks({ funnel }: { funnel: Funnel }) {
  const weeks = [...funnel.weeks].reverse();
  return (
    <section className={`${card} min-w-0`} aria-labelledby="band-weeks-title">
      <h2 id="band-weeks-title" className="font-serif text-lg">
        Completions per band, by week
      </h2>
      <p className={muted}>Weeks start on Monday (UTC); the last 12.</p>
      {/* A phone: each week its own short list, nothing clipped or scrolled sideways (issue 34: 12). */}
      <ol className="mt-3 space-y-3 sm:hidden" aria-label="Completions per band by week" data-testid="band-weeks-list">
        {weeks.map((w) => (
          <li key={w.week} className="rounded-md border border-[var(--color-line)] p-3">
            <h3 className="text-sm font-medium whitespace-nowrap">Week of {w.week}</h3>
            <dl className="mt-1 grid grid-cols-[1fr_auto] gap-x-4 text-sm">
              {funnel.bands.map((b) => (
                <Fragment key={b.level}>
                  <dt className="text-[var(--color-muted)]">{b.level}</dt>
                  <dd className="text-right tabular-nums">{w.bands[b.level] ?? 0}</dd>
                </Fragment>
              ))}
              <dt className="font-medium">Total</dt>
              <dd className="text-right font-medium tabular-nums">{w.total}</dd>
            </dl>
          </li>
        ))}
      </ol>
      <div className="mt-3 hidden max-h-96 overflow-auto sm:block" tabIndex={0} role="region" aria-label="Completions per band by week, scrollable">
        <table className="w-full border-collapse text-left text-sm" aria-label="Completions per band by week">
          <thead className="sticky top-0 border-b border-[var(--color-line)] bg-[var(--color-panel)] text-[var(--color-muted)]">
            <tr>
              <th scope="col" className={th}>Week of</th>
              {funnel.bands.map((b) => (
                <th key={b.level} scope="col" className={`${th} text-right`} title={`Score ${b.min}-${b.max}`}>
                  {b.level}
                </th>
              ))}
              <th scope="col" className={`${th} text-right`}>Total</th>
            </tr>
          </thead>
          <tbody>
            {weeks.map((w) => (
              <tr key={w.week} className="border-b border-[var(--color-line)] last:border-0">
                <th scope="row" className={`${th} text-left whitespace-nowrap`}>
                  {w.week}
                </th>
                {funnel.bands.map((b) => (
                  <td key={b.level} className={`${td} text-right`}>
                    {w.bands[b.level] ?? 0}
                  </td>
                ))}
                <td className={`${td} text-right`}>{w.total}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
