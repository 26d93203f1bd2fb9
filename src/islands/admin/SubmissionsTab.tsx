/**
 * The Assessment Submissions tab (SPEC.md section 2): newest first; name, email, score, level,
 * start and completion times ('In progress' without one); View/Hide Answers (each question and the
 * chosen answer in words, as the server sends them, with its letter); a filter, a CSV
 * download (of what the list holds) and the score distribution (of those loaded). Older
 * submissions load a page at a time. Scans without a single answer are left out unless asked for.
 */
import { useStore } from "@nanostores/react";
import { useId, useState } from "react";
import type { Submission } from "../../stores/admin-api.ts";
import {
  $answeredOnly,
  $band,
  $funnel,
  $onlySubmission,
  $submissions,
  $submissionsAll,
  $submissionsError,
  $submissionsNext,
  $submissionsTotal,
  csvAddress,
  filterByBand,
  isCompleted,
  showOnlySubmission,
  loadMoreSubmissions,
  loadSubmissions,
  showUnanswered,
} from "../../stores/admin-submissions.ts";
import LoadError from "./LoadError.tsx";
import ScanFunnel from "./ScanFunnel.tsx";
import ScoreChart from "./ScoreChart.tsx";
import { card, formatTime, input, label, muted, secondary } from "./ui.ts";

type Filter = "all" | "completed" | "in-progress";

export default function SubmissionsTab() {
  const submissions = useStore($submissions);
  const error = useStore($submissionsError);
  const total = useStore($submissionsTotal);
  const all = useStore($submissionsAll);
  const answeredOnly = useStore($answeredOnly);
  const next = useStore($submissionsNext);
  const [loadingMore, setLoadingMore] = useState(false);
  const [filter, setFilter] = useState<Filter>("all");
  const filterId = useId();
  const bandId = useId();
  const band = useStore($band);
  const bands = useStore($funnel)?.bands ?? [];
  const only = useStore($onlySubmission);
  const shown = submissions.filter((s) => filter === "all" || (filter === "completed") === isCompleted(s));

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <label htmlFor={filterId} className={label}>
            Show
          </label>
          <select id={filterId} className={`${input} w-48`} value={filter} onChange={(e) => setFilter(e.target.value as Filter)}>
            <option value="all">All</option>
            <option value="completed">Completed</option>
            <option value="in-progress">In progress</option>
          </select>
        </div>
        <div>
          <label htmlFor={bandId} className={label}>
            Result band
          </label>
          <select id={bandId} className={`${input} w-56`} value={band} onChange={(e) => void filterByBand(e.target.value)}>
            <option value="">Every scan</option>
            {bands.map((b) => (
              <option key={b.level} value={b.level}>
                {b.level} ({b.min}-{b.max})
              </option>
            ))}
          </select>
        </div>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={!answeredOnly} onChange={(e) => void showUnanswered(e.target.checked)} />
          Include scans with no answers
        </label>
        <a href={csvAddress(answeredOnly, band)} download className={secondary}>
          Download CSV
        </a>
      </div>
      {only && (
        <p className="flex flex-wrap items-center gap-3 text-sm" role="status">
          Showing one submission, from its link.
          <button type="button" className={secondary} onClick={() => void showOnlySubmission(null)}>
            Show all submissions
          </button>
        </p>
      )}
      <ScanFunnel />
      {!error && (
        <p className={muted} data-testid="submission-counts">
          {answeredOnly
            ? `${total} ${total === 1 ? "scan" : "scans"} started, of ${all} opened (a visit to the assessment opens a scan; its first answer starts it).`
            : `${all} ${all === 1 ? "scan" : "scans"} opened, started or not.`}
        </p>
      )}
      {error && <LoadError what="submissions" error={error} onRetry={loadSubmissions} />}
      {!error && <ScoreChart submissions={submissions} />}
      {error ? null : shown.length === 0 ? (
        <p className={muted}>No submissions{filter === "all" ? " yet" : " match this filter"}.</p>
      ) : (
        <ul className="space-y-3" aria-label="Submissions">
          {shown.map((submission) => (
            <SubmissionCard key={submission.id} submission={submission} />
          ))}
        </ul>
      )}
      {next && !error && (
        <div className="flex flex-wrap items-center gap-3">
          <button
            type="button"
            className={secondary}
            disabled={loadingMore}
            onClick={() => {
              setLoadingMore(true);
              void loadMoreSubmissions().finally(() => setLoadingMore(false));
            }}
          >
            {loadingMore ? "Loading..." : "Show older submissions"}
          </button>
          <p className={muted}>
            Showing the newest {submissions.length} of {total}.
          </p>
        </div>
      )}
    </div>
  );
}

function SubmissionCard({ submission }: { submission: Submission }) {
  const [open, setOpen] = useState(false);
  const answersId = useId();
  const answers = [...submission.responses].sort((a, b) => a.questionNumber - b.questionNumber);
  const name = submission.name || "Anonymous";
  return (
    <li className={card}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="font-medium">{name}</h3>
          <p className={muted}>{submission.email || "No email"}</p>
        </div>
        <div className="text-right">
          {isCompleted(submission) ? (
            <>
              <p className="font-serif text-2xl" aria-label={`Score ${submission.score ?? "—"}`}>
                {submission.score ?? "—"}
              </p>
              <p className={muted}>{submission.scoreBreakdown?.level ?? ""}</p>
            </>
          ) : (
            <p className="rounded-full border border-[var(--color-line)] px-2.5 py-0.5 text-sm">In progress</p>
          )}
        </div>
      </div>
      <dl className="mt-3 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="text-[var(--color-muted)]">Started</dt>
        <dd>{formatTime(submission.startedAt)}</dd>
        <dt className="text-[var(--color-muted)]">Completed</dt>
        <dd>{submission.completedAt ? formatTime(submission.completedAt) : "In progress"}</dd>
      </dl>
      <button type="button" className={`${secondary} mt-3`} aria-expanded={open} aria-controls={answersId} onClick={() => setOpen(!open)}>
        {open ? "Hide Answers" : "View Answers"}
      </button>
      <div id={answersId} hidden={!open}>
        {open &&
          (answers.length === 0 ? (
            <p className={`${muted} mt-3`}>No answers yet.</p>
          ) : (
            <ol className="mt-3 divide-y divide-[var(--color-line)] rounded-md border border-[var(--color-line)] text-sm" aria-label={`Answers of ${name}`}>
              {answers.map((answer) => (
                <li key={answer.id} className="grid grid-cols-[2.25rem_1fr] gap-x-2 px-3 py-2.5">
                  {/* The spaces keep the text readable as one line (copied, or read aloud); the grid and flex layouts ignore them. */}
                  <span className="font-medium tabular-nums text-[var(--color-muted)]">Q{answer.questionNumber}</span>{" "}
                  <div className="min-w-0">
                    <p className="text-[var(--color-muted)]">{answer.questionText ?? `Question ${answer.questionNumber}`}</p>{" "}
                    <p className="mt-1.5 flex items-start gap-2">
                      <span className="sr-only">Answer </span>
                      <span className="inline-flex h-5 min-w-5 shrink-0 items-center justify-center rounded border border-[var(--color-line)] px-1 text-xs font-semibold">
                        {answer.answer}
                      </span>{" "}
                      {answer.answerText && <span className="min-w-0">{answer.answerText}</span>}
                    </p>
                  </div>
                </li>
              ))}
            </ol>
          ))}
      </div>
    </li>
  );
}
