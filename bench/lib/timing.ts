/** How the benches time a task: one warm-up, then `runs` timed runs; milliseconds to a tenth. */

export const round = (ms: number) => Math.round(ms * 10) / 10;

export const medianOf = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** One warm-up, then `runs` timed runs: their median and max. */
export async function timed(task: () => Promise<unknown>, runs = 7): Promise<{ median: number; max: number }> {
  await task();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await task();
    times.push(performance.now() - started);
  }
  return { median: round(medianOf(times)), max: round(Math.max(...times)) };
}

/** The median of `runs` timed runs after a warm-up. */
export const medianMs = async (task: () => Promise<unknown>, runs = 7) => (await timed(task, runs)).median;
