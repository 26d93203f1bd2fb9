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

  it("reads an IPv6 address as its bytes: an IPv4 address carried inside it is checked as IPv4, however it is written", () => {
    for (const ip of [
      "::169.254.169.254", // IPv4-compatible (deprecated ::/96)
      "::a9fe:a9fe", // the same, as the URL parser writes it
      "0:0:0:0:0:0:a9fe:a9fe",
      "::ffff:a9fe:a9fe", // mapped, in hex
      "0:0:0:0:0:ffff:127.0.0.1",
      "::ffff:0:10.0.0.1", // translated (::ffff:0:0:0/96)
      "64:ff9b::169.254.169.254", // NAT64
      "64:ff9b::a00:1",
      "64:ff9b:1::1", // NAT64 for local use
      "2002:a9fe:a9fe::1", // 6to4 of 169.254.169.254
      "2002:7f00:1::", // 6to4 of 127.0.0.1
      "2002:c0a8:101::1", // 6to4 of 192.168.1.1
      "fec0::1", // site-local (deprecated)
      "feff::1",
      "2001:0:4136:e378:8000:63bf:3fff:fdd2", // Teredo
      "2001:db8::1",
      "100::1",
      "FE80::1%eth0",
      "[::ffff:169.254.169.254]",
      "0::0",
      "0:0:0:0:0:0:0:1",
    ]) {
      expect(isPrivateAddress(ip), ip).toBe(true);
    }
    for (const ip of ["::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1", "2a00:1450:4001:80b::200e", "::8.8.8.8"]) expect(isPrivateAddress(ip), ip).toBe(false);
  });

  it("refuses webhook addresses that reach the metadata address through an IPv6 form", () => {
    for (const url of ["https://[::169.254.169.254]/latest", "https://[::ffff:a9fe:a9fe]/", "https://[64:ff9b::169.254.169.254]/", "https://[2002:a9fe:a9fe::]/", "https://[fec0::1]/"]) {
      expect(checkWebhookUrl(url, { production: true }).ok, url).toBe(false);
    }
  });
});
