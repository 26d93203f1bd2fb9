/**
 * Each page's Content Security Policy names only the inline scripts that page holds (issue 33).
 * Astro writes into every page's <meta> policy the hashes of the inline scripts of the whole site;
 * a page that holds two of them allowed six more it never runs. Its own only: a tighter policy,
 * and about 300 bytes fewer in the first response of every page. The chapter function fills the
 * chapter shell with text, never with scripts, so the shell's list holds for every chapter.
 */
import { createHash } from "node:crypto";

const POLICY = /(<meta http-equiv="content-security-policy" content=")([^"]*)(")/;
/** Inline scripts the browser runs: no src, and no data type (application/json and the like are data). */
const INLINE_SCRIPT = /<script(?![^>]*\ssrc=)(?![^>]*\stype="(?!module")[^"]*")[^>]*>([\s\S]*?)<\/script>/g;

export function ownScriptHashes(html: string): string {
  const policy = POLICY.exec(html);
  if (!policy) return html;
  const own = new Set([...html.matchAll(INLINE_SCRIPT)].map((m) => `'sha256-${createHash("sha256").update(m[1]!).digest("base64")}'`));
  const trimmed = policy[2]!.replace(/'sha256-[A-Za-z0-9+/=]+'\s?/g, (hash) => (own.has(hash.trim()) ? hash : "")).replace(/\s+;/g, " ;");
  return html.replace(POLICY, `$1${trimmed}$3`);
}
