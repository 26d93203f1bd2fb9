/**
 * The signature on every webhook request (README: "Lead webhooks"), in the style of Stripe's and
 * Svix's: the header `X-Lead-Signature: t={unix seconds},v1={hex HMAC-SHA256}` signs
 * `{t}.{raw body}` with the webhook's secret. A receiver recomputes it over the raw body, compares
 * in constant time, and refuses an old timestamp (a replayed request).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const SIGNATURE_HEADER = "x-lead-signature";
/** How old a signed timestamp may be before `verifySignature` refuses it. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** A new signing secret: 32 random bytes, prefixed so it is recognisable in a receiver's settings. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

export function signatureOf(secret: string, timestamp: number, body: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
}

/** The header value for `body` sent at `timestamp` (seconds since 1970). */
export function signatureHeader(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${signatureOf(secret, timestamp, body)}`;
}

/** What a receiver does: true when `header` signs `body` with `secret`, at most `tolerance` seconds ago. */
export function verifySignature(
  secret: string,
  header: string | null,
  body: string,
  { now = Date.now(), tolerance = SIGNATURE_TOLERANCE_SECONDS }: { now?: number; tolerance?: number } = {},
): boolean {
  const parts = Object.fromEntries((header ?? "").split(",").map((part) => part.split("=", 2) as [string, string]));
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || !/^[0-9a-f]{64}$/.test(parts.v1 ?? "")) return false;
  if (Math.abs(now / 1000 - timestamp) > tolerance) return false;
  const expected = Buffer.from(signatureOf(secret, timestamp, body), "hex");
  return timingSafeEqual(expected, Buffer.from(parts.v1!, "hex"));
}
