/**
 * `npm run bench:tap`: the first tap on a phone (bench/lib/first-tap.ts: 4x CPU, 150 ms round
 * trip, cold cache, 390x844 touch), this checkout against another commit (BASE, default e42f49c,
 * the figure issue 33 compares with), in the same run: both built and started side by side, then
 * ROUNDS (default 7) alternating taps at load on each one's first Operator chapter. Prints every
 * round, the medians and their ratio. Figures, never pass/fail.
 *
 * The other commit is checked out in a git worktree outside the project, with this checkout's
 * node_modules (the two commits' dependencies must match closely enough to build), and removed after.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { projectRoot, startProduct, type ProductServer } from "../tests/support/product-server.ts";
import { tapOnce } from "./lib/first-tap.ts";
import { ensureChromium, FULL_BROWSER } from "../tests/support/chromium.ts";

const base = process.env.BASE || "e42f49c";
const rounds = Number(process.env.ROUNDS || 7);
const work = fs.mkdtempSync(path.join(os.tmpdir(), "sb-tap-"));
const checkout = path.join(work, "base");
const git = (...args: string[]) => execFileSync("git", ["-C", projectRoot, ...args], { stdio: "pipe" }).toString().trim();

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function firstChapter(server: ProductServer): Promise<string> {
  const list = (await (await fetch(`${server.url}/api/chapters`)).json()) as Array<{ slug: string; level: string }>;
  const url = `${server.url}/${list.find((c) => c.level === "Operator")!.slug}`;
  // Kept by the CDN stand-in, as a reader after the first finds it.
  for (let i = 0; i < 2; i++) await (await fetch(url)).arrayBuffer();
  return url;
}

git("worktree", "add", "--detach", checkout, base);
fs.symlinkSync(path.join(projectRoot, "node_modules"), path.join(checkout, "node_modules"));
const servers: ProductServer[] = [];
try {
  const start = (name: string, root: string) =>
    startProduct({ DATABASE_URL: "", DATA_DIR: path.join(work, `${name}-data`), SITE_DIR: path.join(work, `${name}-site`) }, 300_000, root);
  const ours = await start("ours", projectRoot);
  servers.push(ours);
  const theirs = await start("base", checkout);
  servers.push(theirs);
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
} finally {
  for (const server of servers) await server.stop();
  git("worktree", "remove", "--force", checkout);
  fs.rmSync(work, { recursive: true, force: true });
}
