/**
 * What a list shows while it loads (issue 22: 12): its shape in quiet blocks, and in words for
 * everyone ("Loading ..."), never a count of 0 or an empty list it does not know to be empty.
 * The blocks pulse only for readers who have not asked for less motion.
 */
import { muted } from "./ui.ts";

interface Props {
  /** What is loading, in words ("Loading access codes..."). */
  label: string;
  /** How many blocks stand for the rows to come. */
  rows?: number;
  /** Each block's height (a Tailwind class). */
  height?: string;
  className?: string;
}

export default function Skeleton({ label, rows = 3, height = "h-16", className = "" }: Props) {
  return (
    <div role="status" className={className} data-testid="skeleton">
      <p className={muted}>{label}</p>
      <div aria-hidden="true" className="mt-3 space-y-3">
        {Array.from({ length: rows }, (_, i) => (
          <div key={i} className={`${height} animate-pulse rounded-lg bg-[var(--color-line)] opacity-60 motion-reduce:animate-none`} />
        ))}
      </div>
    </div>
  );
}
