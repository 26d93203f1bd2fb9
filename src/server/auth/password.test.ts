import { describe, expect, it } from "vitest";
import { DUMMY_HASH, generatePassword, hashPassword, verifyPassword } from "./password.ts";

describe("passwords", () => {
  it("hashes with a fresh salt and verifies", async () => {
    const a = await hashPassword("correct horse");
    const b = await hashPassword("correct horse");
    expect(a).not.toBe(b);
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(a).not.toContain("correct horse");
    expect(await verifyPassword("correct horse", a)).toBe(true);
    expect(await verifyPassword("correct horsf", a)).toBe(false);
    expect(await verifyPassword("", a)).toBe(false);
  });

  it("never matches a malformed hash or the dummy", async () => {
    expect(await verifyPassword("x", "plain-text-password")).toBe(false);
    expect(await verifyPassword("x", "scrypt$1$2")).toBe(false);
    expect(await verifyPassword("anything", DUMMY_HASH)).toBe(false);
  });

  it("generates strong, distinct passwords", () => {
    const seen = new Set(Array.from({ length: 200 }, () => generatePassword()));
    expect(seen.size).toBe(200);
    for (const password of seen) expect(password).toMatch(/^[A-HJ-NP-Za-km-z2-9]{20}$/);
  });
});
