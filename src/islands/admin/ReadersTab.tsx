/**
 * The Readers tab (issue 23): per access code, its level, last visit, chapters opened and
 * finished, time read and where it stands; per chapter, by level, how many members opened and
 * finished it and the median time. Both tables sort by any column and filter by level, and
 * download as CSV. Each code's reading can be erased. The words are defined once
 * (src/lib/reading-terms.ts) and shown under the tables, with how long the reading is kept.
 */
import { chapterNumber } from "../../lib/chapter-number.ts";
import { useStore } from "@nanostores/react";
import { useEffect, useId, useState } from "react";
import { LEVELS } from "../../lib/levels.ts";
import { READING_TERMS } from "../../lib/reading-terms.ts";
import { railNumber } from "../reader/links.ts";
import { $readers, $readersError, eraseReading, loadReaders, readersCsvAddress, type ChapterReading, type CodeReading } from "../../stores/admin-readers.ts";
import ConfirmDialog, { type Confirmation } from "./ConfirmDialog.tsx";
import LoadError from "./LoadError.tsx";
import Skeleton from "./Skeleton.tsx";
import { card, danger, formatTime, input, muted, secondary } from "./ui.ts";

/** A time read: "under a minute", "12 min", "1 h 05 min". */
export function formatDuration(seconds: number | null): string {
  if (seconds === null) return "—";
  const minutes = Math.round(seconds / 60);
  if (minutes < 1) return seconds > 0 ? "under a minute" : "0 min";
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}


/** Where a code stands, by the numbers readers see: "Architect 02: Title, 02 Part". */
export function placeText(place: CodeReading["place"]): string {
  if (!place) return "—";
  const part = place.sectionNumber ? `, ${railNumber(place.sectionNumber)} ${place.sectionTitle}` : "";
  return `${place.level} ${chapterNumber(place.position)}: ${place.title}${part}`;
}

interface Column<T> {
  key: string;
  label: string;
  value: (row: T) => string | number;
  show: (row: T) => React.ReactNode;
  numeric?: boolean;
}

const levelRank = (level: string) => LEVELS.indexOf(level as (typeof LEVELS)[number]);

const CODE_COLUMNS: Column<CodeReading>[] = [
  { key: "login", label: "Access code", value: (c) => c.login, show: (c) => <span className="font-mono">{c.login}</span> },
  { key: "level", label: "Level", value: (c) => levelRank(c.level), show: (c) => c.level },
  { key: "lastVisit", label: "Last visit", value: (c) => c.lastVisit ?? "", show: (c) => formatTime(c.lastVisit) },
  { key: "opened", label: "Opened", value: (c) => c.opened, show: (c) => c.opened, numeric: true },
  {
    key: "finished",
    label: "Finished",
    value: (c) => c.finished,
    show: (c) => (
      <>
        {c.finished}
        <span className="block text-xs text-[var(--color-muted)]">
          {c.finishedInLevel} of {c.chaptersInLevel} {c.level}
        </span>
      </>
    ),
    numeric: true,
  },
  { key: "seconds", label: "Time read", value: (c) => c.seconds, show: (c) => formatDuration(c.seconds), numeric: true },
  {
    key: "place",
    label: "Where",
    value: (c) => (c.place ? levelRank(c.place.level) * 10_000 + c.place.position * 100 + (c.place.sectionNumber ?? 0) : -1),
    show: (c) => placeText(c.place),
  },
];

const CHAPTER_COLUMNS: Column<ChapterReading>[] = [
  {
    key: "position",
    label: "Chapter",
    value: (c) => levelRank(c.level) * 10_000 + c.position,
    show: (c) => (
      <>
        <span className="font-mono text-xs text-[var(--color-muted)]">{chapterNumber(c.position)}</span> {c.title}
      </>
    ),
  },
  { key: "level", label: "Level", value: (c) => levelRank(c.level), show: (c) => c.level },
  { key: "opened", label: "Opened by", value: (c) => c.opened, show: (c) => c.opened, numeric: true },
  { key: "finished", label: "Finished by", value: (c) => c.finished, show: (c) => c.finished, numeric: true },
  { key: "median", label: "Median time", value: (c) => c.medianSeconds ?? -1, show: (c) => formatDuration(c.medianSeconds), numeric: true },
];

type Sort = { key: string; descending: boolean };

function sorted<T>(rows: readonly T[], columns: Column<T>[], sort: Sort): T[] {
  const column = columns.find((c) => c.key === sort.key) ?? columns[0]!;
  const order = sort.descending ? -1 : 1;
  return [...rows].sort((a, b) => {
    const x = column.value(a);
    const y = column.value(b);
    return (typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y))) * order;
  });
}

/**
 * One sortable table: each header is a button, and the sorted column says so (aria-sort). On a
 * phone or a narrow window (below lg) the rows are a list of cards, sorted by a choice above them,
 * so nothing needs sideways scrolling (as the Access Codes tab).
 */
function SortableTable<T>({ caption, columns, rows, rowKey, initial, action }: {
  caption: string;
  columns: Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  initial: Sort;
  action?: { label: string; run: (row: T) => void; name: (row: T) => string };
}) {
  const [sort, setSort] = useState<Sort>(initial);
  const sortId = useId();
  const onSort = (key: string) => setSort((now) => ({ key, descending: now.key === key ? !now.descending : columns.find((c) => c.key === key)?.numeric === true }));
  const list = sorted(rows, columns, sort);
  const erase = (row: T) =>
    action && (
      <button type="button" className={`${danger} whitespace-nowrap`} onClick={() => action.run(row)} aria-label={`${action.label} of ${action.name(row)}`}>
        {action.label}
      </button>
    );
  return (
    <>
      <div className="mb-3 flex flex-wrap items-end gap-2 lg:hidden">
        <div>
          <label htmlFor={sortId} className="block text-sm font-medium">
            Sort by
          </label>
          <select id={sortId} className={input} value={sort.key} onChange={(e) => onSort(e.target.value)}>
            {columns.map((column) => (
              <option key={column.key} value={column.key}>
                {column.label}
              </option>
            ))}
          </select>
        </div>
        <button type="button" className={secondary} onClick={() => setSort((now) => ({ ...now, descending: !now.descending }))}>
          {sort.descending ? "Descending" : "Ascending"}
        </button>
      </div>
      <ul className="space-y-3 lg:hidden" aria-label={caption}>
        {list.map((row) => (
          <li key={rowKey(row)} className="rounded-md border border-[var(--color-line)] p-3">
            <p className="font-medium break-words">{columns[0]!.show(row)}</p>
            <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
              {columns.slice(1).map((column) => (
                <div key={column.key} className="contents">
                  <dt className="text-[var(--color-muted)]">{column.label}</dt>
                  <dd className="break-words">{column.show(row)}</dd>
                </div>
              ))}
            </dl>
            {action && <div className="mt-3">{erase(row)}</div>}
          </li>
        ))}
      </ul>
      <table className="hidden w-full border-collapse text-left text-sm lg:table">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-[var(--color-line)]">
            {columns.map((column) => (
              <th
                key={column.key}
                scope="col"
                className={`py-2 pr-3 font-medium ${column.numeric ? "text-right" : ""}`}
                aria-sort={sort.key === column.key ? (sort.descending ? "descending" : "ascending") : undefined}
              >
                <button type="button" className="inline-flex items-center gap-1 whitespace-nowrap hover:underline" onClick={() => onSort(column.key)}>
                  {column.label}
                  <span aria-hidden="true" className="text-xs text-[var(--color-muted)]">
                    {sort.key === column.key ? (sort.descending ? "▼" : "▲") : ""}
                  </span>
                </button>
              </th>
            ))}
            {action && (
              <th scope="col" className="py-2 font-medium">
                <span className="sr-only">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {list.map((row) => (
            <tr key={rowKey(row)} className="border-b border-[var(--color-line)] align-top">
              {columns.map((column, i) =>
                i === 0 ? (
                  <th key={column.key} scope="row" className="py-2 pr-3 font-normal">
                    {column.show(row)}
                  </th>
                ) : (
                  <td key={column.key} className={`py-2 pr-3 ${column.numeric ? "text-right tabular-nums" : ""}`}>
                    {column.show(row)}
                  </td>
                ),
              )}
              {action && <td className="py-2 text-right">{erase(row)}</td>}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** One of the two tables, titled, with its CSV download (of the level chosen), or a line saying it is empty. */
function TableSection({ of, title, level, empty, children }: { of: "codes" | "chapters"; title: string; level: string; empty: string | false; children: React.ReactNode }) {
  const titleId = `reader-${of}-title`;
  return (
    <section className={card} aria-labelledby={titleId}>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
        <h2 id={titleId} className="font-serif text-xl">
          {title}
        </h2>
        <a href={readersCsvAddress(of, level)} download className={secondary}>
          Download {of === "codes" ? "members" : "chapters"} CSV
        </a>
      </div>
      {empty ? <p className={muted}>{empty}</p> : children}
    </section>
  );
}

export default function ReadersTab() {
  const answer = useStore($readers);
  const error = useStore($readersError);
  const [level, setLevel] = useState("");
  const [confirmation, setConfirmation] = useState<Confirmation | null>(null);
  const filterId = useId();

  useEffect(() => {
    void loadReaders();
  }, []);

  if (error && !answer) return <LoadError what="readers" error={error} onRetry={loadReaders} />;
  if (!answer) return <Skeleton label="Loading readers..." rows={4} height="h-12" />;

  const codes = answer.codes.filter((c) => !level || c.level === level);
  const chapters = answer.chapters.filter((c) => !level || c.level === level);
  const askErase = (code: CodeReading) =>
    setConfirmation({
      title: "Erase this code's reading?",
      message: `Everything recorded of ${code.login}'s reading (its reading sessions, daily totals and place) is deleted now, for good. The code keeps working.`,
      confirmLabel: "Erase Reading",
      action: () => eraseReading(code.login),
    });

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end gap-4">
        <div>
          <label htmlFor={filterId} className="block text-sm font-medium">
            Level
          </label>
          <select id={filterId} className={input} value={level} onChange={(e) => setLevel(e.target.value)}>
            <option value="">All levels</option>
            {LEVELS.map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </select>
        </div>
      </div>

      <TableSection of="codes" title={`Members (${codes.length})`} level={level} empty={codes.length === 0 && `No access codes${level ? ` of ${level}` : ""} yet.`}>
        <SortableTable
          caption="Members' reading"
          columns={CODE_COLUMNS}
          rows={codes}
          rowKey={(c) => c.login}
          initial={{ key: "lastVisit", descending: true }}
          action={{ label: "Erase reading", run: askErase, name: (c) => c.login }}
        />
      </TableSection>

      <TableSection of="chapters" title={`Chapters (${chapters.length})`} level={level} empty={chapters.length === 0 && `No chapters${level ? ` of ${level}` : ""}.`}>
        <SortableTable caption="Chapters' readers" columns={CHAPTER_COLUMNS} rows={chapters} rowKey={(c) => c.slug} initial={{ key: "position", descending: false }} />
      </TableSection>

      <section className={card} aria-labelledby="reader-terms-title">
        <h2 id="reader-terms-title" className="font-serif text-xl">
          What the figures mean
        </h2>
        <ul className="mt-3 space-y-2 text-sm">
          {Object.values(READING_TERMS).map((term) => (
            <li key={term}>{term}</li>
          ))}
        </ul>
        <p className={`${muted} mt-4`}>
          Only signed-in members&apos; reading is recorded, by their own chapter pages and this site alone: no cookies or scripts of
          anyone else. Reading sessions are kept {answer.retention.readingDays} days; the daily totals these tables count are kept{" "}
          {answer.retention.readingTotalsDays} days. Erasing a code&apos;s reading deletes all of it at once.
        </p>
        <p className={`${muted} mt-2`} data-testid="notebook-count">
          Members keeping a notebook: {answer.notebooks}. What they write is encrypted in their own browsers with a passphrase only they
          know: this panel, the server and its backups can count notebooks and notes, never read them.
        </p>
      </section>

      <ConfirmDialog confirmation={confirmation} onClose={() => setConfirmation(null)} />
    </div>
  );
}
