/**
 * This checkout and another commit, built and started side by side for a bench that compares them
 * in one run (bench/tap.ts, bench/start.ts). The other commit is checked out in a git worktree
 * outside the project, with this checkout's node_modules when the two lock files are the same, or
 * its own installed from its lock file (a dependency one of them has left, as Pagefind left after
 * e42f49c, would stop the other from building), and removed after, with both servers' data.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { projectRoot, startProduct, type ProductServer } from "../../tests/support/product-server.ts";

export async function sideBySide<T>(base: string, run: (servers: { ours: ProductServer; base: ProductServer }) => Promise<T>): Promise<T> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "sb-side-"));
  const checkout = path.join(work, "base");
  const git = (...args: string[]) => execFileSync("git", ["-C", projectRoot, ...args], { stdio: "pipe" }).toString().trim();
  git("worktree", "add", "--detach", checkout, base);
  const servers: ProductServer[] = [];
  try {
    // (`npm install`, not `npm ci`: an older lock may hold this platform's packages only, which npm ci refuses.)
    const lock = (root: string) => fs.readFileSync(path.join(root, "package-lock.json"), "utf8");
    if (lock(checkout) === lock(projectRoot)) fs.symlinkSync(path.join(projectRoot, "node_modules"), path.join(checkout, "node_modules"));
    else execFileSync("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], { cwd: checkout, stdio: "inherit" });
    const start = async (name: string, root: string) => {
      const server = await startProduct({ DATABASE_URL: "", DATA_DIR: path.join(work, `${name}-data`), SITE_DIR: path.join(work, `${name}-site`) }, 300_000, root);
      servers.push(server);
      return server;
    };
    const ours = await start("ours", projectRoot);
    return await run({ ours, base: await start("base", checkout) });
  } finally {
    for (const server of servers) await server.stop();
    git("worktree", "remove", "--force", checkout);
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The first Operator chapter's address on `server`, fetched twice first (kept by the CDN stand-in, as a reader after the first finds it). */
export async function firstChapter(server: ProductServer): Promise<string> {
  const list = (await (await fetch(`${server.url}/api/chapters`)).json()) as Array<{ slug: string; level: string }>;
  const url = `${server.url}/${list.find((c) => c.level === "Operator")!.slug}`;
  for (let i = 0; i < 2; i++) await (await fetch(url)).arrayBuffer();
  return url;
}
