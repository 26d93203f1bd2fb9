import { describe, expect, it } from "vitest";
import { EARLY_SCRIPT } from "../layouts/early-script.ts";
import { laterPageScript } from "./page-script-later.ts";

const SRC = "/_astro/page.js";
const page = `<!DOCTYPE html><html lang="en" class="dark"><head><script>${EARLY_SCRIPT}</script></head><body><p>text</p><script type="module" src="${SRC}"></script><template id="full-sheet"></template></body></html>`;

describe("laterPageScript", () => {
  it("takes the page script's tag out and names the file on <html>, for the early script to import after the first paint", () => {
    expect(laterPageScript(page, SRC)).toBe(
      `<!DOCTYPE html><html data-script="${SRC}" lang="en" class="dark"><head><script>${EARLY_SCRIPT}</script></head><body><p>text</p><template id="full-sheet"></template></body></html>`,
    );
  });

  it("fails the build on a page that does not link the script as Astro does, rather than leave it linked", () => {
    expect(() => laterPageScript(page.replace(`type="module" `, ""), SRC)).toThrow(/does not link its page script/);
  });
});

/** The early script run against a stand-in of the browser: what it imports, and when. */
function runEarlyScript(script: string | null, lcpEntries = true) {
  const listeners = new Map<string, () => void>();
  const imported: string[] = [];
  let observer: (() => void) | undefined;
  const timers: Array<() => void> = [];
  const root = { getAttribute: (name: string) => (name === "data-script" ? script : null), classList: { toggle() {} }, style: {}, dataset: {}, setAttribute() {} };
  const run = new Function(
    "document",
    "localStorage",
    "addEventListener",
    "PerformanceObserver",
    "setTimeout",
    "__import",
    EARLY_SCRIPT.replace("import(s)", "__import(s)"),
  );
  run(
    { documentElement: root, cookie: "" },
    { getItem: () => null },
    (type: string, listener: () => void) => listeners.set(type, listener),
    class {
      constructor(callback: () => void) {
        observer = callback;
      }
      // Only the first contentful paint's entry will do (a "paint" entry may be backgrounds alone),
      // including one reported before the observer was made.
      observe({ type, buffered }: { type: string; buffered?: boolean }) {
        if (!lcpEntries || type !== "largest-contentful-paint" || !buffered) observer = undefined;
      }
    },
    (work: () => void) => timers.push(work),
    (src: string) => imported.push(src),
  );
  return { listeners, imported, paint: () => observer?.(), timeout: () => timers.forEach((work) => work()) };
}

describe("the early script's import of the page script", () => {
  it("waits for the parse and then the first paint, and imports once", () => {
    const page = runEarlyScript(SRC);
    expect(page.imported).toEqual([]);
    page.listeners.get("DOMContentLoaded")!();
    expect(page.imported).toEqual([]);
    page.paint();
    expect(page.imported).toEqual([SRC]);
    page.paint();
    page.timeout();
    expect(page.imported).toEqual([SRC]);
  });

  it("imports it 2 s after the parse where no contentful paint is reported (a tab opened in the background, no LCP entries)", () => {
    const page = runEarlyScript(SRC, false);
    page.listeners.get("DOMContentLoaded")!();
    page.paint();
    expect(page.imported).toEqual([]);
    page.timeout();
    expect(page.imported).toEqual([SRC]);
  });

  it("does nothing on a page that links its script itself (the admin panel)", () => {
    expect(runEarlyScript(null).listeners.size).toBe(0);
  });
});
