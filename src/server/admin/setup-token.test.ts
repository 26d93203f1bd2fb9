/**
 * The setup token is checked before the password is hashed: a wrong token costs the server one
 * query, not a scrypt hash (issue 11).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type DatabaseHandle } from "../db/client.ts";

const hashed = vi.hoisted(() => ({ count: 0 }));
vi.mock("../auth/password.ts", async (original) => {
  const actual = await original<typeof import("../auth/password.ts")>();
  return {
    ...actual,
    hashPassword: (password: string) => {
      hashed.count++;
      return actual.hashPassword(password);
    },
  };
});

const { issueSetupToken, redeemSetupToken } = await import("./setup-token.ts");

describe("redeeming the setup token", () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openDatabase({ driver: "pglite", dataDir: null });
    await database.migrate();
  });
  afterAll(() => database?.close());

  it("refuses a wrong token without hashing the password, and hashes it once for the right one", async () => {
    const token = await issueSetupToken(database.db);
    const account = { email: "owner@example.com", password: "long-enough-pw" };
    await expect(redeemSetupToken(database.db, "x".repeat(43), account)).rejects.toMatchObject({ status: 403 });
    expect(hashed.count).toBe(0);
    await expect(redeemSetupToken(database.db, token!, account)).resolves.toMatchObject({ email: "owner@example.com" });
    expect(hashed.count).toBe(1);
  });
});
