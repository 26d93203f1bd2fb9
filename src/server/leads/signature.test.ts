import { describe, expect, it } from "vitest";
import { newWebhookSecret, signatureHeader, verifySignature } from "./signature.ts";

describe("webhook signatures", () => {
  const secret = newWebhookSecret();
  const body = '{"name":"Ada"}';
  const now = Date.parse("2026-11-23T12:00:00Z");
  const t = now / 1000;

  it("verifies the header over timestamp and body, and nothing else", () => {
    const header = signatureHeader(secret, t, body);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifySignature(secret, header, body, { now })).toBe(true);
    expect(verifySignature(secret, header, body + " ", { now })).toBe(false);
    expect(verifySignature(newWebhookSecret(), header, body, { now })).toBe(false);
    expect(verifySignature(secret, header.replace(`t=${t}`, `t=${t + 1}`), body, { now })).toBe(false);
    expect(verifySignature(secret, null, body, { now })).toBe(false);
    expect(verifySignature(secret, "t=1,v1=zz", body, { now })).toBe(false);
  });

  it("refuses a timestamp over five minutes old (a replay)", () => {
    const header = signatureHeader(secret, t - 301, body);
    expect(verifySignature(secret, header, body, { now })).toBe(false);
    expect(verifySignature(secret, signatureHeader(secret, t - 299, body), body, { now })).toBe(true);
  });

  it("makes a new 256-bit secret each time", () => {
    expect(newWebhookSecret()).not.toBe(secret);
    expect(Buffer.from(secret.slice("whsec_".length), "base64url")).toHaveLength(32);
  });
});
