/**
 * The score distribution of completed scans in 5-point buckets: a bar chart that is also a real
 * table (bucket, count), so screen readers and the eye read the same figures.
 */
import type { Submission } from "../../stores/admin-api.ts";

export const BUCKET_SIZE = 5;
/** The scan's total runs from 15 (15 × 1 point) to 60 (15 × 4 points). */
const LOWEST = 15;
const HIGHEST = 60;

export function scoreBuckets(scores: number[]): { label: string; count: number }[] {
  const low = Math.min(LOWEST, ...scores.map((s) => Math.floor(s / BUCKET_SIZE) * BUCKET_SIZE));
  const high = Math.max(HIGHEST, ...scores);
  const buckets: { from: number; to: number; count: number }[] = [];
  for (let from = low; from <= high; from += BUCKET_SIZE) {
    // The last bucket takes the top score in too (55–60), so no bucket holds a single value.
    const to = from + BUCKET_SIZE * 2 > high + 1 ? high : from + BUCKET_SIZE - 1;
    buckets.push({ from, to, count: scores.filter((s) => s >= from && s <= to).length });
    if (to === high) break;
  }
  return buckets.map((b) => ({ label: `${b.from}–${b.to}`, count: b.count }));
}

export default function ScoreChart({ submissions }: { submissions: Submission[] }) {
  const scores = submissions.flatMap((s) => (s.completedAt !== null && typeof s.score === "number" ? [s.score] : []));
  const buckets = scoreBuckets(scores);
  const most = Math.max(1, ...buckets.map((b) => b.count));
  return (
    <figure className="rounded-lg border border-[var(--color-line)] bg-[var(--color-panel)] p-4">
      <figcaption className="text-sm font-semibold">Score distribution ({scores.length} completed)</figcaption>
      <table className="mt-3 w-full border-collapse text-sm">
        <thead className="sr-only">
          <tr>
            <th scope="col">Score</th>
            <th scope="col">Submissions</th>
          </tr>
        </thead>
        <tbody>
          {buckets.map((bucket) => (
            <tr key={bucket.label}>
              <th scope="row" className="w-16 py-0.5 pr-3 text-left font-mono font-normal text-[var(--color-muted)]">
                {bucket.label}
              </th>
              <td className="py-0.5">
                <div className="flex items-center gap-2">
                  <div
                    aria-hidden="true"
                    className="h-3 rounded-sm bg-[var(--color-accent)]"
                    style={{ width: `${(bucket.count / most) * 85}%`, minWidth: bucket.count ? "0.25rem" : 0 }}
                  />
                  <span>{bucket.count}</span>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
