/** A scan's result as 'Scan Complete' and its private link both show it: score, level, text. */
import type { ScanResult } from "../../lib/assessment/shape.ts";
import ResultDescription from "./ResultDescription.tsx";

export default function ResultBody({ result }: { result: Pick<ScanResult, "totalScore" | "level" | "description"> }) {
  return (
    <>
      <div className="mt-8 rounded-lg border border-line bg-panel p-6">
        <p className="text-sm uppercase tracking-widest text-muted">Total score</p>
        <p className="mt-1 text-5xl font-semibold" data-testid="total-score">
          {result.totalScore}
        </p>
        <p className="mt-4 text-sm uppercase tracking-widest text-muted">Level</p>
        <p className="mt-1 text-2xl font-semibold" data-testid="level">
          {result.level}
        </p>
      </div>
      <div className="mt-8">
        <ResultDescription text={result.description} />
      </div>
    </>
  );
}
