/**
 * `npm run --silent admin -- <command>`: manage admin accounts from the command line.
 *
 *   create --email E --password P [--json]
 *   setup-link [--url https://example.com]    prints a one-time link that creates the first admin
 *
 * Works against DATABASE_URL, or the embedded database while the server is stopped.
 */
import { parseArgs } from "node:util";
import { adminAccountInput } from "../../lib/content-schemas.ts";
import { createAdminAccount } from "../admin/accounts.ts";
import { issueSetupToken } from "../admin/setup-token.ts";
import { config } from "../config.ts";
import { withDatabase } from "./with-database.ts";

const USAGE = `Usage: npm run --silent admin -- <command>
  create --email E --password P [--json]     (the password needs at least 10 characters)
  setup-link [--url SITE_URL]                 a one-time link that creates the first admin`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    email: { type: "string" },
    password: { type: "string" },
    url: { type: "string" },
    json: { type: "boolean", default: false },
  },
});

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

const [command] = positionals;

switch (command) {
  case "create": {
    const parsed = adminAccountInput.safeParse({ email: values.email, password: values.password });
    if (!parsed.success) fail(`--${String(parsed.error.issues[0]!.path[0])}: ${parsed.error.issues[0]!.message}.`);
    await withDatabase(async ({ db, migrate }) => {
      await migrate();
      const account = await createAdminAccount(db, parsed.data);
      console.log(values.json ? JSON.stringify({ email: account.email }) : `Admin account ${account.email} created. Sign in at /admin.`);
    });
    break;
  }
  case "setup-link": {
    await withDatabase(async ({ db, migrate }) => {
      await migrate();
      const token = await issueSetupToken(db);
      const base = values.url ?? process.env.SITE_URL ?? `http://localhost:${config().port}`;
      console.log(
        token
          ? `Create the first admin (this link works once, for 24 hours): ${new URL(`/admin?setup=${token}`, base)}`
          : "An admin account already exists: no setup link is needed. Use `npm run admin -- create` for another.",
      );
    });
    break;
  }
  default:
    fail(command ? `Unknown command "${command}".` : "Missing command.");
}
