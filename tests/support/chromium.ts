/**
 * Debian's Chromium builds (test tools cannot download browsers here), each installed with apt-get
 * when it is missing and this is root. CHROMIUM_PATH names another binary for both.
 *
 * - The tests drive the headless shell: the same Blink as the full browser without its window
 *   system, which Playwright itself runs headless tests in by default, and much lighter (the
 *   end-to-end stage took 7.7 min in it against 11.3 in the full browser).
 * - The benches measure in the full browser, the one readers have.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";

export const HEADLESS_SHELL = { path: "/usr/bin/chromium-headless-shell", package: "chromium-headless-shell" };
export const FULL_BROWSER = { path: "/usr/bin/chromium", package: "chromium" };

/** The path of `build` (or CHROMIUM_PATH), installed first when it is missing. */
export function ensureChromium(build: { path: string; package: string }): string {
  const binary = process.env.CHROMIUM_PATH || build.path;
  if (fs.existsSync(binary)) return binary;
  if (binary === build.path && process.getuid?.() === 0) {
    console.log(`${binary} is missing: installing Debian's ${build.package} package...`);
    execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
    execFileSync("apt-get", ["install", "-y", "-qq", build.package], { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  }
  if (!fs.existsSync(binary)) throw new Error(`No Chromium at ${binary}: install Debian's ${build.package} package (apt-get install ${build.package}) or set CHROMIUM_PATH.`);
  return binary;
}
