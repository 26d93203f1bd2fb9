import { describe, expect, it } from "vitest";
import { newWebhookSecret, signatureHeader, verifySignature } from "./signature.ts";

describe("webhook signatures", () => {
  const secret = newWebhookSecret();
  const body = '{"name":"Ada"}';
  const now = Date.parse("2026-11-23T12:00:00Z");
  const t = now / 1000;

  it("verifies the header over timestamp, delivery id and body, and nothing else", () => {
    const header = signatureHeader(secret, t, "42", body);
    expect(header).toMatch(/^t=\d+,v2=[0-9a-f]{64}$/);
    expect(verifySignature(secret, header, "42", body, { now })).toBe(true);
    expect(verifySignature(secret, header, "42", body + " ", { now })).toBe(false);
    expect(verifySignature(newWebhookSecret(), header, "42", body, { now })).toBe(false);
    expect(verifySignature(secret, header.replace(`t=${t}`, `t=${t + 1}`), "42", body, { now })).toBe(false);
    expect(verifySignature(secret, null, "42", body, { now })).toBe(false);
    expect(verifySignature(secret, "t=1,v2=zz", "42", body, { now })).toBe(false);
  });

  it("refuses the same request under another delivery id (a replay past a receiver's dedupe)", () => {
    const header = signatureHeader(secret, t, "42", body);
    expect(verifySignature(secret, header, "43", body, { now })).toBe(false);
    expect(verifySignature(secret, header, "", body, { now })).toBe(false);
    expect(verifySignature(secret, header, null, body, { now })).toBe(false);
    // The id and the body cannot trade characters across the separator: an id is digits only.
    expect(verifySignature(secret, signatureHeader(secret, t, "4", `2.${body}`), "4.2", body, { now })).toBe(false);
  });

  it("refuses a timestamp over five minutes old (a replay)", () => {
    const header = signatureHeader(secret, t - 301, "42", body);
    expect(verifySignature(secret, header, "42", body, { now })).toBe(false);
    expect(verifySignature(secret, signatureHeader(secret, t - 299, "42", body), "42", body, { now })).toBe(true);
  });

  it("makes a new 256-bit secret each time", () => {
    expect(newWebhookSecret()).not.toBe(secret);
    expect(Buffer.from(secret.slice("whsec_".length), "base64url")).toHaveLength(32);
  });
});
