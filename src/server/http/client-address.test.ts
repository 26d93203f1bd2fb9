import { describe, expect, it } from "vitest";
import { clientOf } from "../host/app.ts";
import { addressKey } from "./request.ts";

describe("the client's address", () => {
  it("keys IPv4 addresses as they are, IPv4-mapped IPv6 as IPv4, and IPv6 by its /64", () => {
    expect(addressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("2001:db8:85a3:0042:1000:8a2e:370:7334")).toBe("2001:db8:85a3:42::/64");
    expect(addressKey("2001:db8:85a3:42::1")).toBe(addressKey("2001:0db8:85a3:0042:ffff:ffff:ffff:ffff"));
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("unknown")).toBe("unknown");
  });

  it("takes the peer, or behind a trusted proxy the nearest untrusted address it forwards", () => {
    expect(clientOf("198.51.100.9", "203.0.113.7", [])).toBe("198.51.100.9");
    expect(clientOf("198.51.100.9", "203.0.113.7", ["127.0.0.1"])).toBe("198.51.100.9");
    expect(clientOf("::ffff:127.0.0.1", "203.0.113.7", ["127.0.0.1"])).toBe("203.0.113.7");
    // A client may send its own X-Forwarded-For: only what the trusted proxy appended counts.
    expect(clientOf("127.0.0.1", "6.6.6.6, 203.0.113.7", ["127.0.0.1"])).toBe("203.0.113.7");
    expect(clientOf("127.0.0.1", "203.0.113.7, 10.0.0.2", ["127.0.0.1", "10.0.0.2"])).toBe("203.0.113.7");
    expect(clientOf("127.0.0.1", undefined, ["127.0.0.1"])).toBe("127.0.0.1");
  });
});
