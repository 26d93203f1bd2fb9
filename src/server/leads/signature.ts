/**
 * The signature on every webhook request (README: "Lead webhooks"), in the style of Stripe's and
 * Svix's: the header `X-Lead-Signature: t={unix seconds},v2={hex HMAC-SHA256}` signs
 * `{t}.{delivery id}.{raw body}` with the webhook's secret, where the delivery id is the request's
 * `X-Lead-Delivery` header. A receiver recomputes it over that header and the raw body, compares in
 * constant time, and refuses an old timestamp (a replayed request). Signing the delivery id means
 * a receiver that ignores repeats by that id cannot be fooled by a captured request replayed under
 * another id. (`v1`, which signed `{t}.{raw body}` only, is no longer sent.)
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const SIGNATURE_HEADER = "x-lead-signature";
/** The delivery's id, the same on every attempt of one delivery; covered by the signature. */
export const DELIVERY_HEADER = "x-lead-delivery";
/** How old a signed timestamp may be before `verifySignature` refuses it. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** A new signing secret: 32 random bytes, prefixed so it is recognisable in a receiver's settings. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

export function signatureOf(secret: string, timestamp: number, deliveryId: string, body: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${deliveryId}.${body}`).digest("hex");
}

/** The header value for delivery `deliveryId` of `body`, sent at `timestamp` (seconds since 1970). */
export function signatureHeader(secret: string, timestamp: number, deliveryId: string, body: string): string {
  return `t=${timestamp},v2=${signatureOf(secret, timestamp, deliveryId, body)}`;
}

/**
 * What a receiver does: true when `header` signs the delivery id `deliveryId` (the X-Lead-Delivery
 * header, digits only) and `body` with `secret`, at most `tolerance` seconds ago.
 */
export function verifySignature(
  secret: string,
  header: string | null | undefined,
  deliveryId: string | null | undefined,
  body: string,
  { now = Date.now(), tolerance = SIGNATURE_TOLERANCE_SECONDS }: { now?: number; tolerance?: number } = {},
): boolean {
  const parts = Object.fromEntries((header ?? "").split(",").map((part) => part.split("=", 2) as [string, string]));
  const timestamp = Number(parts.t);
  if (!deliveryId || !/^\d{1,20}$/.test(deliveryId) || !Number.isInteger(timestamp) || !/^[0-9a-f]{64}$/.test(parts.v2 ?? "")) return false;
  if (Math.abs(now / 1000 - timestamp) > tolerance) return false;
  const expected = Buffer.from(signatureOf(secret, timestamp, deliveryId, body), "hex");
  return timingSafeEqual(expected, Buffer.from(parts.v2!, "hex"));
}
