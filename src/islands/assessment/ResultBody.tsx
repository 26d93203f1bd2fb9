/**
 * A scan's result as 'Scan Complete' and its private link both show it: the score out of the
 * highest total, where it falls among the levels (a bar of the bands, issue 34: 4), the level and
 * the text.
 */
import type { ScanResult, ScoreScale } from "../../lib/assessment/shape.ts";
import ResultDescription from "./ResultDescription.tsx";

const label = "text-sm uppercase tracking-widest text-muted";

export default function ResultBody({ result }: { result: Pick<ScanResult, "totalScore" | "level" | "description"> & { scale?: ScoreScale } }) {
  // (An answer without a scale, from a server before it had one, shows the score alone.)
  const { scale } = result;
  return (
    <>
      <div className="mt-8 rounded-lg border border-line bg-panel p-6">
        <p className={label}>Total score</p>
        <p className="mt-1 text-5xl font-semibold">
          <span data-testid="total-score">{result.totalScore}</span>
          {scale && (
            <span className="ml-2 text-lg font-normal text-muted" data-testid="score-out-of">
              out of {scale.max}
            </span>
          )}
        </p>
        <p className={`${label} mt-4`}>Level</p>
        <p className="mt-1 text-2xl font-semibold" data-testid="level">
          {result.level}
        </p>
        {scale && <ScoreBands score={result.totalScore} scale={scale} />}
      </div>
      <div className="mt-8">
        <ResultDescription text={result.description} />
      </div>
    </>
  );
}

/** The bands side by side, each as wide as its range, the score's own filled and marked at the score. */
function ScoreBands({ score, scale }: { score: number; scale: ScoreScale }) {
  const span = scale.max - scale.min + 1;
  const at = Math.min(Math.max(score, scale.min), scale.max);
  const position = ((at - scale.min + 0.5) / span) * 100;
  return (
    <figure className="mt-6" data-testid="score-scale">
      <div className="relative pt-3" aria-hidden="true">
        <span className="absolute top-0 h-0 w-0 -translate-x-1/2 border-x-[6px] border-t-[8px] border-x-transparent border-t-ink" style={{ left: `${position}%` }} />
        <div className="flex h-2.5 gap-0.5 overflow-hidden rounded-full">
          {scale.bands.map((band) => (
            <span
              key={band.level}
              className={score >= band.min && score <= band.max ? "bg-accent" : "bg-line"}
              style={{ flexGrow: band.max - band.min + 1, flexBasis: 0 }}
            />
          ))}
        </div>
      </div>
      <figcaption className="sr-only">
        {score} of {scale.max} points
      </figcaption>
      <ol className="mt-3 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-2" aria-label="The levels, by total score">
        {scale.bands.map((band) => {
          const here = score >= band.min && score <= band.max;
          return (
            <li key={band.level} className={`flex justify-between gap-3 ${here ? "font-semibold text-ink" : "text-muted"}`} aria-current={here ? "true" : undefined}>
              <span>{band.level}</span>
              <span className="tabular-nums">
                {band.min}–{band.max}
              </span>
            </li>
          );
        })}
      </ol>
    </figure>
  );
}
