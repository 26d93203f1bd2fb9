/**
 * One POST to a webhook receiver, sent to the address that was checked.
 *
 * The receiver's host name is looked up once; in production every address it gives must be public
 * (webhook-url.ts), and the connection is then made to those very addresses: the request's own
 * `lookup` answers them instead of asking DNS again. A name that answers a public address to the
 * check and 127.0.0.1 to the connection (DNS rebinding) therefore never reaches the server's own
 * network. The URL keeps its host name, so the Host header, TLS's server name (SNI) and the
 * certificate check are all for that name, as with any request.
 *
 * What failed is told in words of the request (refused, not found, no answer, certificate not
 * accepted), never with the system's error text: that names addresses and ports of the network
 * the server runs in ("connect ECONNREFUSED 10.0.0.5:8080"), and the admin panel shows it.
 */
import { lookup as dnsLookup } from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { isPrivateAddress } from "./webhook-url.ts";

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Looks a host name up: every address it has. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

export type ReceiverAnswer = { ok: true; status: number } | { ok: false; status: number | null; error: string };

export interface ReceiverRequest {
  headers: Record<string, string>;
  body: string;
  /** Refuse a host that resolves to a private address (production). */
  publicOnly: boolean;
  /** For the whole request: the look-up, connecting and the answer's status line. */
  timeoutMs: number;
  resolve?: Resolver;
}

export const PRIVATE_ADDRESS_ERROR = "The receiver's host name points into a private network, so nothing was sent.";

/** Sends `body` to `url` and answers the receiver's status, or what failed; never throws. */
export async function postToReceiver(url: string, { headers, body, publicOnly, timeoutMs, resolve = systemResolver }: ReceiverRequest): Promise<ReceiverAnswer> {
  const deadline = AbortSignal.timeout(timeoutMs);
  try {
    const target = new URL(url);
    const addresses = await beforeDeadline(addressesOf(target.hostname.replace(/^\[|\]$/g, ""), resolve), deadline);
    if (addresses.length === 0) return failed("The receiver's host name was not found.");
    if (publicOnly && addresses.some((a) => isPrivateAddress(a.address))) return failed(PRIVATE_ADDRESS_ERROR);
    const { status, statusText } = await send(target, addresses, headers, body, deadline);
    if (status >= 200 && status < 300) return { ok: true, status };
    const reason = statusText.replace(/[^\x20-\x7e]/g, "").trim().slice(0, 80);
    return { ok: false, status, error: `The receiver answered ${status}${reason ? ` ${reason}` : ""}.` };
  } catch (error) {
    return failed(deadline.aborted ? `No answer within ${timeoutMs / 1000} s.` : describeFailure(error));
  }
}

function failed(error: string): ReceiverAnswer {
  return { ok: false, status: null, error };
}

async function addressesOf(hostname: string, resolve: Resolver): Promise<ResolvedAddress[]> {
  const literal = isIP(hostname);
  if (literal) return [{ address: hostname, family: literal === 6 ? 6 : 4 }];
  return resolve(hostname);
}

function beforeDeadline<T>(work: Promise<T>, deadline: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(deadline.reason as Error);
    if (deadline.aborted) return onAbort();
    deadline.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => deadline.removeEventListener("abort", onAbort));
  });
}

/** A `lookup` for the connection that answers the checked addresses and never asks DNS. */
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
    const usable = wanted.length > 0 ? wanted : addresses;
    if (options.all) (callback as (error: null, addresses: ResolvedAddress[]) => void)(null, usable);
    else callback(null, usable[0]!.address, usable[0]!.family);
  };
}

function send(
  url: URL,
  addresses: ResolvedAddress[],
  headers: Record<string, string>,
  body: string,
  signal: AbortSignal,
): Promise<{ status: number; statusText: string }> {
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: "POST",
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
        lookup: pinnedLookup(addresses),
        // A connection of its own (no pooled socket to somewhere else), closed after the answer.
        agent: false,
        signal,
      },
      (response) => {
        resolve({ status: response.statusCode ?? 0, statusText: response.statusMessage ?? "" });
        // The answer's body is not needed.
        response.destroy();
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

const TLS_CODES = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "CERT_REVOKED",
  "CERT_UNTRUSTED",
  "CERT_REJECTED",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "ERR_TLS_CERT_ALTNAME_FORMAT",
]);

/**
 * What failed, in words that name nothing of the server's network: only the error's code (such
 * as ECONNREFUSED) is read, never its message, which carries addresses, ports and host names.
 */
export function describeFailure(error: unknown): string {
  const code = typeof (error as { code?: unknown })?.code === "string" ? (error as { code: string }).code : "";
  switch (code) {
    case "ECONNREFUSED":
      return "The connection was refused: nothing is listening at the receiver's address.";
    case "ENOTFOUND":
      return "The receiver's host name was not found.";
    case "EAI_AGAIN":
      return "The receiver's host name could not be looked up just now.";
    case "ECONNRESET":
    case "EPIPE":
      return "The connection was closed before the receiver answered.";
    case "ETIMEDOUT":
      return "The connection timed out.";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
    case "EHOSTDOWN":
    case "ENETDOWN":
    case "EADDRNOTAVAIL":
      return "The receiver's address could not be reached.";
  }
  if (TLS_CODES.has(code) || code.startsWith("CERT_")) return `The receiver's HTTPS certificate was not accepted (${code}).`;
  if (code.startsWith("ERR_SSL_") || code.startsWith("ERR_TLS_")) return "The secure (HTTPS) connection to the receiver failed.";
  if (code.startsWith("HPE_")) return "The receiver's answer was not valid HTTP.";
  return /^[A-Z][A-Z0-9_]{2,40}$/.test(code) ? `The request failed (${code}).` : "The request failed.";
}
