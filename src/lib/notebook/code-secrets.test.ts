import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NOTEBOOK_REFUSED_KEY } from "../storage-keys.ts";
import { isCodeSecret, rememberCodeSecrets } from "./code-secrets.ts";

describe("the access code's own secrets, refused as a passphrase", () => {
  const kept = new Map<string, string>();
  const before = Object.getOwnPropertyDescriptor(globalThis, "localStorage");
  beforeEach(() => {
    kept.clear();
    Object.defineProperty(globalThis, "localStorage", {
      configurable: true,
      value: { getItem: (key: string) => kept.get(key) ?? null, setItem: (key: string, value: string) => kept.set(key, value), removeItem: (key: string) => kept.delete(key) },
    });
  });
  afterEach(() => {
    if (before) Object.defineProperty(globalThis, "localStorage", before);
    else delete (globalThis as { localStorage?: unknown }).localStorage;
  });

  it("refuses the password and the login (in any case), and nothing else; the words themselves are never kept", async () => {
    await rememberCodeSecrets("Architect482913", "kq7-VW2m-pXs9");
    const stored = kept.get(NOTEBOOK_REFUSED_KEY)!;
    expect(stored).not.toContain("kq7-VW2m-pXs9");
    expect(stored.toLowerCase()).not.toContain("architect482913");
    expect(await isCodeSecret("kq7-VW2m-pXs9")).toBe(true);
    expect(await isCodeSecret(" kq7-VW2m-pXs9 ")).toBe(true);
    expect(await isCodeSecret("architect482913")).toBe(true);
    expect(await isCodeSecret("ARCHITECT482913")).toBe(true);
    expect(await isCodeSecret("KQ7-vw2M-PxS9")).toBe(false);
    expect(await isCodeSecret("a passphrase only I know")).toBe(false);
  });

  it("refuses nothing when the browser kept no digests (signed in before they existed)", async () => {
    expect(await isCodeSecret("anything at all")).toBe(false);
  });
});
