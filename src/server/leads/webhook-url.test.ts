import { describe, expect, it } from "vitest";
import { checkWebhookUrl, isPrivateAddress } from "./webhook-url.ts";

describe("webhook addresses", () => {
  it("takes https anywhere public, and http only to localhost while developing", () => {
    expect(checkWebhookUrl(" https://hooks.zapier.com/hooks/catch/1/abc/ ", { production: true })).toEqual({ ok: true, url: "https://hooks.zapier.com/hooks/catch/1/abc/" });
    expect(checkWebhookUrl("http://localhost:8080/hook", { production: false }).ok).toBe(true);
    expect(checkWebhookUrl("http://127.0.0.1:8080/hook", { production: false }).ok).toBe(true);
    expect(checkWebhookUrl("http://localhost:8080/hook", { production: true }).ok).toBe(false);
    expect(checkWebhookUrl("http://example.com/hook", { production: false }).ok).toBe(false);
    expect(checkWebhookUrl("javascript:alert(1)", { production: false }).ok).toBe(false);
    expect(checkWebhookUrl("https://a:b@example.com/", { production: false }).ok).toBe(false);
  });

  it("refuses private and internal hosts in production", () => {
    for (const url of ["https://10.0.0.5/x", "https://192.168.1.1/", "https://169.254.169.254/latest", "https://[::1]/", "https://[fd00::1]/", "https://localhost/", "https://intranet/", "https://172.20.0.1/"]) {
      expect(checkWebhookUrl(url, { production: true }).ok, url).toBe(false);
    }
    expect(checkWebhookUrl("https://172.32.0.1/", { production: true }).ok).toBe(true);
  });

  it("knows private addresses", () => {
    for (const ip of ["127.0.0.1", "10.1.2.3", "100.64.0.1", "172.16.0.1", "192.168.0.1", "169.254.1.1", "0.0.0.0", "::1", "::ffff:10.0.0.1", "fe80::1", "fc00::1"]) {
      expect(isPrivateAddress(ip), ip).toBe(true);
    }
    for (const ip of ["8.8.8.8", "172.32.0.1", "2606:4700::1111", "example.com"]) expect(isPrivateAddress(ip), ip).toBe(false);
  });
});
