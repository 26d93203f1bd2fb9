/**
 * Which addresses a lead webhook may have. In production only `https://` to a public host: an
 * address inside the server's own network (loopback, private ranges, link-local, the cloud metadata
 * address) is refused, so the admin panel cannot be turned into a probe of the hosting network
 * (server-side request forgery). In development (`npm start` without an https SITE_URL) plain
 * `http://` is also allowed to localhost and 127.0.0.1, for a receiver on the same machine.
 */
import { isIP } from "node:net";

export const WEBHOOK_URL_MAX_LENGTH = 2000;

export type UrlCheck = { ok: true; url: string } | { ok: false; problem: string };

/** Whether `address` (IPv4 or IPv6 literal) is one no public webhook can have. */
export function isPrivateAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, "").toLowerCase();
  const kind = isIP(ip);
  if (kind === 4) {
    const [a, b] = ip.split(".").map(Number) as [number, number];
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
      (a === 169 && b === 254) || // link-local, cloud metadata
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 192 && b === 0) ||
      (a === 198 && (b === 18 || b === 19)) ||
      a >= 224 // multicast and reserved
    );
  }
  if (kind === 6) {
    if (ip === "::" || ip === "::1") return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
    if (mapped) return isPrivateAddress(mapped[1]!);
    return /^(fc|fd|fe8|fe9|fea|feb|ff)/.test(ip);
  }
  return false;
}

const LOCAL_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Checks a webhook address the operator typed; answers it normalised, or what is wrong with it. */
export function checkWebhookUrl(text: string, { production }: { production: boolean }): UrlCheck {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: false, problem: "Enter the address the receiver gave you (https://...)." };
  if (trimmed.length > WEBHOOK_URL_MAX_LENGTH) return { ok: false, problem: `Use an address of at most ${WEBHOOK_URL_MAX_LENGTH} characters.` };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { ok: false, problem: "This is not a web address: it must start with https://." };
  }
  if (url.username || url.password) return { ok: false, problem: "Leave user names and passwords out of the address; the signature proves who sends." };
  const host = url.hostname.toLowerCase();
  const local = LOCAL_NAMES.has(host) || host.endsWith(".localhost");
  if (url.protocol === "http:") {
    if (production || !local) return { ok: false, problem: "Use an https:// address (plain http is allowed only for localhost while developing)." };
  } else if (url.protocol !== "https:") {
    return { ok: false, problem: "Use an https:// address." };
  }
  if (production && (local || isPrivateAddress(host) || !host.includes("."))) {
    return { ok: false, problem: "This address is inside a private network; use the receiver's public https:// address." };
  }
  url.hash = "";
  return { ok: true, url: url.toString() };
}
