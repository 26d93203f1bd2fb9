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

/** Whether the IPv4 address `a.b.c.d` is one no public webhook can have. */
function isPrivateIPv4([a, b]: readonly number[]): boolean {
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b! >= 64 && b! <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local, cloud metadata
    (a === 172 && b! >= 16 && b! <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a! >= 224 // multicast and reserved
  );
}

/** The 16 bytes of an IPv6 literal (`isIP` already said it is one), any zone dropped. */
function ipv6Bytes(ip: string): number[] {
  let text = ip.replace(/%.*$/, "");
  // A dotted IPv4 tail (::ffff:10.0.0.1, ::169.254.169.254) is the last two groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const groups = (part: string | undefined) => (part ? part.split(":").map((group) => parseInt(group, 16)) : []);
  const front = groups(head);
  const back = groups(tail);
  const all = tail === undefined ? front : [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
  return all.flatMap((group) => [group >> 8, group & 0xff]);
}

const startsWith = (bytes: readonly number[], prefix: readonly number[]) => prefix.every((byte, i) => bytes[i] === byte);
const zeros = (n: number) => Array<number>(n).fill(0);

/**
 * Whether `address` (an IPv4 or IPv6 literal) is one no public webhook can have. An IPv6 address
 * is read as its 16 bytes, so every way of writing one is the same address, and an IPv4 address
 * carried inside it (IPv4-compatible ::/96, mapped ::ffff:0:0/96, translated ::ffff:0:0:0/96,
 * NAT64 64:ff9b::/96, 6to4 2002::/16) is checked as IPv4.
 */
export function isPrivateAddress(address: string): boolean {
  const ip = address.replace(/^\[|\]$/g, "").toLowerCase();
  const kind = isIP(ip);
  if (kind === 4) return isPrivateIPv4(ip.split(".").map(Number));
  if (kind !== 6) return false;
  const bytes = ipv6Bytes(ip);
  const v4At = (offset: number) => bytes.slice(offset, offset + 4);
  if (startsWith(bytes, zeros(12))) return isPrivateIPv4(v4At(12)); // ::, ::1 and ::a.b.c.d
  if (startsWith(bytes, [...zeros(10), 0xff, 0xff])) return isPrivateIPv4(v4At(12));
  if (startsWith(bytes, [...zeros(8), 0xff, 0xff, 0, 0])) return isPrivateIPv4(v4At(12));
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, ...zeros(8)])) return isPrivateIPv4(v4At(12));
  if (startsWith(bytes, [0x20, 0x02])) return isPrivateIPv4(v4At(2));
  const [first, second] = bytes as [number, number];
  return (
    startsWith(bytes, [0, 0x64, 0xff, 0x9b, 0, 1]) || // NAT64 for local use (64:ff9b:1::/48)
    startsWith(bytes, [1, 0, ...zeros(6)]) || // discard-only (100::/64)
    startsWith(bytes, [0x20, 0x01, 0, 0]) || // Teredo (2001::/32): an IPv4 tunnel
    startsWith(bytes, [0x20, 0x01, 0x0d, 0xb8]) || // documentation (2001:db8::/32)
    (first & 0xfe) === 0xfc || // unique local (fc00::/7)
    (first === 0xfe && (second & 0xc0) === 0x80) || // link-local (fe80::/10)
    (first === 0xfe && (second & 0xc0) === 0xc0) || // site-local, deprecated (fec0::/10)
    first === 0xff // multicast
  );
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
