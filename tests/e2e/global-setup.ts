import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { LEVELS } from "../../src/lib/levels.ts";
import { createAdminAccount } from "../../src/server/admin/accounts.ts";
import { openDatabase } from "../../src/server/db/client.ts";
import { issueAccessCode } from "../../src/server/repositories/access-codes.ts";
import { E2E_DATA_DIR, E2E_PORT, freshDataDir, startProductServer, TEMPLATE_DIR } from "./server.ts";

export const CODES_FILE = path.join(E2E_DATA_DIR, "codes.json");
/** The admin account the admin panel's tests sign in with (tests/e2e/admin-fixtures.ts). */
export const ADMIN_FILE = path.join(E2E_DATA_DIR, "admin.json");

/**
 * The run's template (server.ts): a fresh embedded database with one access code per level and
 * one admin account, then started once as `npm start` would be (migrated, seeded, the site built)
 * and stopped, so every worker's copy starts at once.
 */
export default async function globalSetup() {
  freshDataDir();
  const database = await openDatabase({ driver: "pglite", dataDir: TEMPLATE_DIR });
  try {
    await database.migrate();
    const codes = Object.fromEntries(
      await Promise.all(LEVELS.map(async (level) => [level, await issueAccessCode(database.db, { level })] as const)),
    );
    fs.writeFileSync(CODES_FILE, JSON.stringify(codes));
    const admin = { email: "e2e-admin@example.com", password: `e2e-${randomBytes(12).toString("hex")}` };
    await createAdminAccount(database.db, admin);
    fs.writeFileSync(ADMIN_FILE, JSON.stringify(admin));
  } finally {
    await database.close();
  }
  const server = await startProductServer(TEMPLATE_DIR, E2E_PORT);
  const code = await server.stop();
  if (code !== 0) throw new Error(`The template server stopped with ${code}:\n${server.output()}`);
}
