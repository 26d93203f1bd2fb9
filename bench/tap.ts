/**
 * `npm run bench:tap`: the first tap on a phone (bench/lib/first-tap.ts: 4x CPU, 150 ms round
 * trip, cold cache, 390x844 touch), this checkout against another commit (BASE, default e42f49c,
 * the figure issue 33 compares with), in the same run: both built and started side by side, then
 * ROUNDS (default 7) alternating taps at load on each one's first Operator chapter. Prints every
 * round, the medians and their ratio. Figures, never pass/fail. (bench/lib/side-by-side.ts starts both.)
 */
import { chromium } from "@playwright/test";
import { tapOnce } from "./lib/first-tap.ts";
import { firstChapter, sideBySide } from "./lib/side-by-side.ts";
import { ensureChromium, FULL_BROWSER } from "../tests/support/chromium.ts";

const base = process.env.BASE || "e42f49c";
const rounds = Number(process.env.ROUNDS || 7);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

await sideBySide(base, async ({ ours, base: theirs }) => {
  const urls = { ours: await firstChapter(ours), base: await firstChapter(theirs) };
  const browser = await chromium.launch({ executablePath: ensureChromium(FULL_BROWSER), args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
  type Figures = { open: number[]; painted: number[] };
  const taps: Record<"ours" | "base", Figures> = { ours: { open: [], painted: [] }, base: { open: [], painted: [] } };
  try {
    for (let round = 1; round <= rounds; round++) {
      // Alternating which goes first, so neither always meets a warmer machine.
      const order = round % 2 ? (["ours", "base"] as const) : (["base", "ours"] as const);
      const line: string[] = [];
      for (const which of order) {
        const tap = await tapOnce(browser, urls[which], 0);
        taps[which].open.push(tap.drawerOpenMs);
        if (tap.paintedMs !== null) taps[which].painted.push(tap.paintedMs);
        line.push(`${which === "ours" ? "this checkout" : base} ${tap.drawerOpenMs} ms (painted ${tap.paintedMs ?? "?"} ms)`);
      }
      console.log(`round ${round}: touch to the frame with the drawer open: ${line.join(", ")}`);
    }
  } finally {
    await browser.close();
  }
  const figures = (name: string, pick: (f: Figures) => number[]) => {
    const ours = median(pick(taps.ours));
    const theirs = median(pick(taps.base));
    console.log(`${name}, median of ${rounds}: this checkout ${ours} ms, ${base} ${theirs} ms; ratio ${(ours / theirs).toFixed(2)}`);
    return Number((ours / theirs).toFixed(2));
  };
  const ratio = figures("first tap at load, touch to the frame with the drawer open", (f) => f.open);
  const paintedRatio = figures("first tap at load, touch to that frame's paint (Event Timing)", (f) => f.painted);
  console.log(JSON.stringify({ base, rounds, ours: taps.ours, theirs: taps.base, ratio, paintedRatio }));
});
